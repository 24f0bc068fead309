import Foundation
import Crypto
import Synchronization
import NewsgenModel

/// Fingerprints of pages read from what they are made of, without building their template values.
///
/// Rendering a carried page is skipped, but its fingerprint must still be known. A story is
/// shown the same way on every page, but for the page's root and the row's place: its title,
/// summary, author, link, image, time and outlet, its page, its source's id, name and section,
/// whether it is saved, which of its tags have pages and which of its images are static files.
/// Those are digested once per story (`feedStory`), and every row and article page showing the
/// story feeds that digest.
///
/// The rule that keeps this exact: every value `row` and `articlePage` (with `page`) read is
/// fed here. A change there that reads another one must feed it here too, or a page showing
/// the new value would be carried with the old bytes; `PageFingerprintTests` and
/// `ListFingerprintTests` change each input and check the fingerprints follow the rendered bytes.
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
        feedRow(article, into: &hasher)
        // The page shows every tag (fed with the story) and the story's text, whose images
        // name files of the `static` folder relatively when they do: the text as the page shows
        // it, when that is not the text itself (fed once, not twice).
        hasher.add(article.categories)
        hasher.add(article.content)
        let shown = article.content.map { siteLinks(in: $0, root: "") }
        hasher.add(shown == article.content ? nil : shown)
    }

    /// Digests every story with a page, on every core, before any page is fingerprinted:
    /// every one of them is needed (each has a page, and is a row of its day's page).
    func prepareStoryDigests() {
        let stories = articlesWithPages
        let digests = Parallel.inParts(stories) { part in
            zip(part.indices, part).map { place, article in
                var story = Fingerprint.Hasher()
                self.feedStory(article, likelyAt: place, into: &story)
                return story.finishDigest()
            }
        }
        storyDigests.prepare(stories, digests: digests, places: places)
    }

    /// Feeds everything a row of `article` shows, but the page's root and the row's place:
    /// the story's digest, made once (`feedStory`).
    func feedRow(_ article: Article, into hasher: inout Fingerprint.Hasher) {
        if let digest = storyDigests[article] {
            hasher.add(digest: digest)
            return
        }
        var story = Fingerprint.Hasher()
        feedStory(article, into: &story)
        let digest = story.finishDigest()
        storyDigests[article] = digest
        hasher.add(digest: digest)
    }

    /// Every value of the story and the site that `row` reads, but the root and the row's place.
    /// `place`: where the story likely is among those with pages (`articlesWithPages`), so that
    /// its page is found without hashing its id (`slug(of:likelyAt:)`).
    func feedStory(_ article: Article, likelyAt place: Int? = nil, into hasher: inout Fingerprint.Hasher) {
        hasher.add("story")
        // Its title, summary, author, link, image, time (as rows show it, in whole seconds) and
        // outlet, through their digest: kept with the story, in the cache too.
        hasher.add(shownOf: article)
        // The story's own page, named from its title and id.
        let page = if let place { articlePath(article, likelyAt: place) } else { articlePath(article) }
        hasher.add(page)
        // An image names a file of the `static` folder relatively, when it does.
        hasher.add(article.imageURL.map { siteLink($0, root: "") })

        let source = sourcesByID[article.sourceID]
        hasher.add(source?.id)
        hasher.add(source?.name)
        // The row leaves out the tag named like the source's section.
        hasher.add(source?.config.category)
        // Which of its tags link to a page depends on every other story (a tag needs two): the
        // links are fed as a page at the site's root shows them.
        let tags = tagLinks(article, root: "")
        hasher.add(tags.count)
        for tag in tags {
            hasher.add(tag.name)
            hasher.add(tag.href)
            hasher.add(tag.linked)
        }
        hasher.add(savedIDs[.favorites]?.contains(article.id) ?? false)
        hasher.add(savedIDs[.readLater]?.contains(article.id) ?? false)
    }
}

/// Each story's digest (`SiteModelBuilder.feedStory`). The stories with pages (every row of the
/// archive's pages among them) are digested before any page is fingerprinted (`prepare`), and
/// then only read, without a lock. Any other story (a saved copy that differs from the archived
/// one) is digested when first asked for, and kept under a lock.
///
/// A digest is kept with the story it was made from and given only for that very story: two
/// copies of a story with one id (a saved copy, an archived one) may differ.
final class StoryDigests: Sendable {
    /// The digests of the stories with pages, set once by `prepare`.
    private let prepared = AtomicLazyReference<Prepared>()
    private let others = Mutex<[String: (story: Article, digest: SHA256.Digest)]>([:])

    private final class Prepared: Sendable {
        let stories: [Article]
        let digests: [SHA256.Digest]
        /// Each story's place, by id.
        let places: [String: Int32]
        /// The same places by the stories' storage (`Article.storageIdentity`): nearly every row
        /// shows the very copy that has the page, found then without hashing its id. The
        /// stories have distinct ids, and so distinct storages; `stories` holds each while
        /// this lives, so no identity here can be another story's.
        let placesByStorage: [ObjectIdentifier: Int32]

        init(stories: [Article], digests: [SHA256.Digest], places: [String: Int32]) {
            self.stories = stories
            self.digests = digests
            self.places = places
            var byStorage: [ObjectIdentifier: Int32] = [:]
            byStorage.reserveCapacity(stories.count)
            for (place, story) in stories.enumerated() { byStorage[story.storageIdentity] = Int32(place) }
            placesByStorage = byStorage
        }
    }

    /// Keeps the digests of `stories` (`digests[i]` of `stories[i]`), found by id through
    /// `places` (the model's, made with the stories' slugs). Called once, before any page is
    /// fingerprinted; a second call changes nothing.
    func prepare(_ stories: [Article], digests: [SHA256.Digest], places: [String: Int32]) {
        _ = prepared.storeIfNil(Prepared(stories: stories, digests: digests, places: places))
    }

    subscript(story: Article) -> SHA256.Digest? {
        get {
            if let prepared = prepared.load() {
                if let place = prepared.placesByStorage[story.storageIdentity] { return prepared.digests[Int(place)] }
                if let place = prepared.places[story.id].map(Int.init), prepared.stories[place] == story { return prepared.digests[place] }
            }
            return others.withLock { others in
                guard let known = others[story.id], known.story == story else { return nil }
                return known.digest
            }
        }
        set {
            guard let newValue else { return }
            others.withLock { $0[story.id] = (story, newValue) }
        }
    }
}
