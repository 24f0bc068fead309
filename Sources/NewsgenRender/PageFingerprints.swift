import Foundation
import Crypto
import Synchronization
import NewsgenModel

/// Fingerprints of pages read from what they are made of, without building their template values, so a carried page need
/// not be rendered. A story shows the same on every page but for the root and row place, so what it shows is digested
/// once (`feedStory`) and fed by every row and article page showing it.
///
/// Every value `row` and `articlePage` (with `page`) read must be fed here, or a page showing a new value would be carried
/// with the old bytes; `PageFingerprintTests` and `ListFingerprintTests` check the fingerprints follow the rendered bytes.
extension SiteModelBuilder {
    /// Feeds everything the page of `article`, at `path`, shows.
    func feedArticlePage(_ article: Article, path: String, into hasher: inout Fingerprint.Hasher) {
        hasher.add(path)
        let config = content.config
        hasher.add(config.title)
        hasher.add(config.description)
        hasher.add(config.language)
        hasher.add(config.baseURL.absoluteString)
        hasher.add(config.images.rawValue)
        hasher.add(cardImage(article.imageURL))
        feedRow(article, into: &hasher)
        // Every tag (fed with the story), and the text as the page shows it (static images linked relatively) when that
        // differs from the text itself.
        hasher.add(article.categories)
        feedCoverage(of: article, into: &hasher)
        hasher.add(article.content)
        let shown = article.content.map { siteLinks(in: $0, root: "") }
        hasher.add(shown == article.content ? nil : shown)
    }

    /// Digests every story with a page, on every core, before any page is fingerprinted: all are needed.
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

    /// Feeds everything a row of `article` shows but the root and place: the story's digest (`feedStory`).
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

    /// Every value of the story and site that `row` reads but the root and place. `place` is where the story likely is
    /// in `articlesWithPages`, so its page is found without hashing its id (`slug(of:likelyAt:)`).
    func feedStory(_ article: Article, likelyAt place: Int? = nil, into hasher: inout Fingerprint.Hasher) {
        hasher.add("story")
        // What rows show of the story (`add(shown:)`), through its digest kept with the story and in the cache.
        hasher.add(shownOf: article)
        let page = if let place { articlePath(article, likelyAt: place) } else { articlePath(article) }
        hasher.add(page)
        let image = shownImage(article.imageURL, root: "")
        hasher.add(image?.src)
        hasher.add(image?.set?.srcset)
        hasher.add(image?.set.map { "\($0.width)x\($0.height)" })

        let source = sourcesByID[article.sourceID]
        hasher.add(source?.id)
        hasher.add(source?.name)
        hasher.add(source?.config.category)
        // Which tags link to a page depends on every other story: fed as a page at the site's root shows them.
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

/// Each story's digest (`SiteModelBuilder.feedStory`). The stories with pages are digested before any page is
/// fingerprinted (`prepare`), then only read, without a lock; any other story (a saved copy differing from the archived
/// one) is digested on first ask under a lock. A digest is given only for the very copy it was made from.
final class StoryDigests: Sendable {
    /// The digests of the stories with pages, set once by `prepare`.
    private let prepared = AtomicLazyReference<Prepared>()
    private let others = Mutex<[String: (story: Article, digest: SHA256.Digest)]>([:])

    private final class Prepared: Sendable {
        let stories: [Article]
        let digests: [SHA256.Digest]
        let places: [String: Int32]
        /// The same places by storage (`Article.storageIdentity`), so most rows skip hashing the id. `stories` holds each
        /// while this lives, so no identity here can be another story's.
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

    /// Keeps the digests of `stories` (`digests[i]` of `stories[i]`), found by id through `places`. Called once, before
    /// any page is fingerprinted; a second call changes nothing.
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
