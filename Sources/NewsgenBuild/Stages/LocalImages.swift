package import Foundation
package import Logging
package import NewsgenModel
package import NewsgenConfig
package import NewsgenFetch
package import NewsgenStore
package import NewsgenRender
import NewsgenImages

/// Under `"images": "local"`, makes every image the pages show the site's own: each is fetched once (its variants kept in
/// the cache's image folder, its outcome in the cache by URL), asked for again only when it failed for now or is no
/// longer fresh (a conditional GET), and shown from the site's `images/` folder. Fetching shares the build's budget and
/// per-host limit; an image that cannot be had or decoded is left out, never a failed build. Under `remote` and `none`
/// it does nothing.
package struct LocalImages: BuildStep {
    package static let stage = BuildStage.images

    package var config: SiteConfig
    package var store: any ArticleStore
    /// `nil` fetches nothing (`--offline`): pages show the images already made.
    package var http: HTTPFetcher?
    package var budget: FetchBudget
    package var now: Date
    package var logger: Logger

    package init(config: SiteConfig, store: any ArticleStore, http: HTTPFetcher?, budget: FetchBudget, now: Date, logger: Logger) {
        self.config = config
        self.store = store
        self.http = http
        self.budget = budget
        self.now = now
        self.logger = logger
    }

    /// Where the variants' files are kept: `images/` beside the cache file.
    package static func folder(cache: URL) -> URL {
        cache.deletingLastPathComponent().appendingPathComponent("images", isDirectory: true)
    }

    /// The most bytes of an image read.
    package static let maximumBytes = 10 * 1_048_576

    package struct Made: Sendable {
        package var images: SiteImages
        package var fetched = 0
    }

    package func run(_ stories: ExtractFullText.Stories) async -> Made {
        guard config.images == .local else { return Made(images: SiteImages(mode: config.images)) }
        let folder = Self.folder(cache: config.cache)
        let urls = Self.imageURLs(in: stories.sources.flatMap(\.articles) + stories.archive, site: config.baseURL)
        var known: [String: StoredImage]
        do {
            known = try await store.images(of: urls)
        } catch {
            logger.warning("cache: \(error) (\(urls.count) images)")
            return Made(images: SiteImages(mode: .local, folder: folder))
        }
        // A made image whose files are gone (the folder was cleared) is made again.
        for (url, image) in known {
            if case .made(let hash, let variants) = image.outcome,
               !variants.allSatisfy({ FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(hash)-\($0.width).webp").path) }) {
                known[url] = nil
            }
        }
        var changed: [String: StoredImage] = [:]
        var fetched = 0
        if let http {
            let due = urls.filter { url in known[url].map { $0.isDue(at: now) } ?? true }
            let outcomes = await fetch(due, known: known, http: http, into: folder)
            fetched = outcomes.count
            for (url, image) in outcomes {
                known[url] = image
                changed[url] = image
            }
        }
        // What pages show keeps its place in the cache: moved at most once a day.
        for url in urls {
            guard var image = known[url], changed[url] == nil, now.timeIntervalSince(image.lastShown) >= 86_400 else { continue }
            image.lastShown = now
            changed[url] = image
        }
        do {
            try await store.recordImages(changed)
            let gone = try await store.pruneImages(notShownSince: now.addingTimeInterval(-TimeInterval(config.keepDays) * 86_400))
            Self.remove(gone, from: folder)
        } catch {
            logger.warning("cache: \(error) (\(changed.count) images)")
        }
        var made: [String: SiteImage] = [:]
        for url in urls {
            guard case .made(let hash, let variants)? = known[url]?.outcome else { continue }
            made[url] = SiteImage(hash: hash, variants: variants)
        }
        return Made(images: SiteImages(mode: .local, made: made, folder: folder), fetched: fetched)
    }

    /// Every image the stories show, sorted: thumbnails and lead images, and the images of their full text, except the
    /// site's own files (under `site`).
    static func imageURLs(in articles: [Article], site: URL) -> [String] {
        var urls = Set<String>()
        let own = site.absoluteString
        for article in articles {
            if let image = article.imageURL, !image.hasPrefix(own) { urls.insert(image) }
            guard let content = article.content else { continue }
            for url in StoryImages.sources(in: content) where !url.hasPrefix(own) { urls.insert(url) }
        }
        return urls.sorted()
    }

    /// Fetches and makes each image, two per host at once, until the fetch budget ends; returns what each image asked
    /// for gave (images not reached are absent: the next build asks for them).
    private func fetch(_ due: [String], known: [String: StoredImage], http: HTTPFetcher, into folder: URL) async -> [String: StoredImage] {
        guard !due.isEmpty else { return [:] }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            logger.warning("images: cannot create \(folder.path) (\(FileProblem.describe(error))); no image is fetched")
            return [:]
        }
        let (budget, now, logger, timeoutSeconds) = (budget, now, logger, config.timeoutSeconds)
        let requests = StoryRequests(budget: budget, logger: logger, noun: ("images", "images"), level: .info)
        let reached = await requests.run(due, url: { $0 }, seconds: { _ in timeoutSeconds }) { url, address, timeout, noAnswer -> (String, StoredImage)? in
            let previous = known[url]
            var headers = [("Accept", "image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1")]
            if case .made? = previous?.outcome {
                if let etag = previous?.etag { headers.append(("If-None-Match", etag)) }
                if let modified = previous?.lastModified { headers.append(("If-Modified-Since", modified)) }
            }
            let attempts = (previous.map { if case .failed = $0.outcome { $0.attempts } else { 0 } } ?? 0) + 1
            func kept(_ outcome: StoredImage.Outcome, etag: String? = nil, lastModified: String? = nil) -> (String, StoredImage) {
                (url, StoredImage(outcome, attempted: now, attempts: attempts, etag: etag, lastModified: lastModified, lastShown: now))
            }
            let response: HTTPResponse
            do throws(HTTPFetchError) {
                response = try await http.get(address, headers: headers, timeout: timeout) { status, headers in
                    (200...299).contains(status) && Self.isImageType(headers)
                }
            } catch {
                if case .timedOut = error, budget.isExhausted { return nil }
                switch error {
                case .tooLarge, .tooManyRedirects, .badEncoding:
                    logger.info("image \(url): \(error); left out")
                    return kept(.none(reason: error.description))
                case .timedOut, .connection:
                    noAnswer(error.description)
                    return Self.failed(url, error.description, attempts: attempts, logger: logger).map { kept($0) }
                }
            }
            if response.status == 304, let previous {
                var image = previous
                image.attempted = now
                image.lastShown = now
                return (url, image)
            }
            guard (200...299).contains(response.status) else {
                let reason = "HTTP \(response.status)"
                if response.status >= 500 || response.status == 429 || response.status == 408 {
                    return Self.failed(url, reason, attempts: attempts, logger: logger).map { kept($0) }
                }
                logger.info("image \(url): \(reason); left out")
                return kept(.none(reason: reason))
            }
            guard Self.isImageType(response.headers) else {
                let type = response.header("Content-Type") ?? ""
                logger.info("image \(url): it is served as \(type), not as an image; left out")
                return kept(.none(reason: "served as \(type)"))
            }
            let etag = response.header("ETag"), lastModified = response.header("Last-Modified")
            do throws(ImageRefusal) {
                let image = try ImageProcessor.process(response.body)
                let hash = String(Fingerprint.of(response.body).hex.prefix(20))
                for variant in image.variants {
                    let file = folder.appendingPathComponent("\(hash)-\(variant.size.width).\(ProcessedImage.fileExtension)")
                    guard !FileManager.default.fileExists(atPath: file.path) else { continue }
                    try? variant.data.write(to: file, options: .atomic)
                }
                return kept(.made(hash: hash, variants: image.variants.map(\.size)), etag: etag, lastModified: lastModified)
            } catch {
                logger.info("image \(url): \(error); left out")
                return kept(.none(reason: error.description))
            }
        }
        return Dictionary(reached, uniquingKeysWith: { first, _ in first })
    }

    /// A failure for now, or for good once the attempts are spent.
    private static func failed(_ url: String, _ reason: String, attempts: Int, logger: Logger) -> StoredImage.Outcome? {
        if attempts >= RetryLater.attempts {
            logger.info("image \(url): \(reason); left out")
            return .none(reason: reason)
        }
        logger.info("image \(url): \(reason); left out, and tried again in \(Int(RetryLater.after / 3600)) h")
        return .failed(reason: reason)
    }

    /// An image type other than SVG, or a type that says nothing (octet-stream, none): the bytes decide.
    static func isImageType(_ headers: [(name: String, value: String)]) -> Bool {
        let type = headers.first { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value ?? ""
        let media = type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if media.isEmpty || media == "application/octet-stream" || media == "binary/octet-stream" { return true }
        return media.hasPrefix("image/") && !media.hasPrefix("image/svg")
    }

    /// Removes the files of images no longer kept.
    static func remove(_ hashes: Set<String>, from folder: URL) {
        guard !hashes.isEmpty, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names {
            guard let dash = name.lastIndex(of: "-"), hashes.contains(String(name[..<dash])) else { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    package func summary(of made: Made) -> String {
        guard config.images == .local else { return "" }
        return "\(made.images.made.count) images, \(made.fetched) fetched"
    }
}
