import Foundation
import NewsgenModel

/// Fingerprints of pages read from what they are made of, without building their template values.
///
/// Rendering a carried page is skipped, but its fingerprint must still be known, and building
/// a page's values (through `Mirror`) only to digest them cost a cron run about 3 s on a
/// 10,000-article site. An article's page shows the article, its source's id, name and section,
/// whether it is saved, which of its tags have pages, which of its images are static files, and
/// four site settings: those are fed to the hasher as they are.
///
/// The rule that keeps this exact: every value `articlePage` (with `page` and `row`) reads is
/// fed here. A change there that reads another one must feed it here too, or a page showing the
/// new value would be carried with the old bytes; `PageFingerprintTests` changes each input
/// and checks the fingerprint follows the rendered bytes.
extension SiteModelBuilder {
    /// Feeds everything the page of `article`, at `path`, shows.
    func feedArticlePage(_ article: Article, path: String, into hasher: inout Fingerprint.Hasher) {
        // The path gives the page's root, its canonical URL, its navigation and its own link.
        hasher.add(path)
        let config = content.config
        hasher.add(config.title)
        hasher.add(config.description)
        hasher.add(config.language)
        hasher.add(config.baseURL.absoluteString)

        hasher.add(article.title)
        hasher.add(article.summary)
        hasher.add(article.author)
        hasher.add(article.url)
        hasher.add(article.imageURL)
        // The page shows whole seconds (its <time> and readable date); the date is fed as it shows them.
        hasher.add(article.published.map(Dates.rfc3339))
        hasher.add(article.categories)
        hasher.add(article.outlet)
        // Images and story text name files of the `static` folder relatively, when they do.
        hasher.add(article.imageURL.map { siteLink($0, root: "") })
        hasher.add(article.content.map { siteLinks(in: $0, root: "") })

        let source = sourcesByID[article.sourceID]
        hasher.add(source?.id)
        hasher.add(source?.name)
        // The row leaves out the tag named like the source's section.
        hasher.add(source?.config.category)
        // Which of its tags link to a page depends on every other story (a tag needs two): the
        // links are fed as the page shows them.
        for tag in tagLinks(article, root: "") {
            hasher.add(tag.name)
            hasher.add(tag.href)
            hasher.add(tag.linked)
        }
        hasher.add(savedIDs[.favorites]?.contains(article.id) ?? false)
        hasher.add(savedIDs[.readLater]?.contains(article.id) ?? false)
    }
}
