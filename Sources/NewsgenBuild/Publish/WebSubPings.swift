public import Foundation
public import Logging
public import NewsgenConfig
public import NewsgenFetch
import NewsgenModel

/// The feeds each WebSub hub has not been told about yet: recorded by every build that publishes changed feeds, and
/// taken off once the hub accepted a ping for them. Kept beside the cache (`location(cache:)`) as JSON,
/// `{"version": 1, "hubs": {"<hub URL>": ["<feed URL>", …]}}`, so a ping that failed, or that waits for `newsgen ping`,
/// is neither lost nor sent twice.
package struct PendingPings: Sendable, Equatable {
    /// Feed URLs by hub URL, each list in the order first recorded.
    package var feeds: [String: [String]] = [:]

    package init(feeds: [String: [String]] = [:]) {
        self.feeds = feeds
    }

    package static func location(cache: URL) -> URL {
        cache.deletingPathExtension().appendingPathExtension("websub.json")
    }

    /// The lock held while the record is read and written, so a build and `newsgen ping` never lose each other's change.
    static func lockLocation(cache: URL) -> URL {
        cache.deletingLastPathComponent().appendingPathComponent("websub.lock")
    }

    package var isEmpty: Bool { feeds.values.allSatisfy(\.isEmpty) }

    /// Adds `feeds` for each of `hubs`, once each.
    package mutating func add(_ added: [String], for hubs: [String]) {
        for hub in hubs {
            var list = feeds[hub] ?? []
            var known = Set(list)
            for feed in added where known.insert(feed).inserted { list.append(feed) }
            feeds[hub] = list
        }
    }

    /// Takes `sent` off `hub`'s list.
    package mutating func remove(_ sent: [String], for hub: String) {
        let done = Set(sent)
        let left = (feeds[hub] ?? []).filter { !done.contains($0) }
        feeds[hub] = left.isEmpty ? nil : left
    }

    /// Reads the record; a missing file is an empty one.
    package static func load(from file: URL) throws -> PendingPings {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch CocoaError.fileReadNoSuchFile {
            return PendingPings()
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], object["version"] as? Int == 1,
              let hubs = object["hubs"] as? [String: [String]] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return PendingPings(feeds: hubs)
    }

    /// Writes the record whole (a new file renamed over the old one), or removes it when nothing is pending.
    package func save(to file: URL) throws {
        if isEmpty {
            do { try FileManager.default.removeItem(at: file) } catch CocoaError.fileNoSuchFile {}
            return
        }
        let object: [String: Any] = ["version": 1, "hubs": feeds.filter { !$0.value.isEmpty }]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file, options: .atomic)
    }
}

/// WebSub's publisher side: which feeds a build changed, the record of those not yet pinged (`PendingPings`), and the
/// pings themselves, after a build publishes (`"ping": "build"`) or by `newsgen ping`.
public struct WebSubPings: Sendable {
    public var settings: WebSubSettings
    /// The feeds' URLs are this and their paths.
    public var baseURL: URL
    public var cache: URL
    /// `nil` sends nothing (`--offline`): changed feeds are only recorded.
    public var http: HTTPFetcher?
    /// One attempt's deadline (`timeoutSeconds`).
    public var timeout: Duration
    public var logger: Logger

    public init(settings: WebSubSettings, baseURL: URL, cache: URL, http: HTTPFetcher?, timeout: Duration, logger: Logger) {
        self.settings = settings
        self.baseURL = baseURL
        self.cache = cache
        self.http = http
        self.timeout = timeout
        self.logger = logger
    }

    /// How the hubs answered.
    public struct Report: Sendable {
        /// Hubs that accepted a ping, each with the feeds it was sent.
        public var accepted: [(hub: String, feeds: [String])] = []
        /// Hubs that did not; their feeds stay pending.
        public var failed: [String] = []
    }

    /// The feed files (RSS, Atom, JSON Feed) among `paths` whose bytes in `staging` differ from those the published
    /// `output` holds, or that it does not hold.
    package static func changedFeeds(among paths: [String], staging: URL, output: URL) -> [String] {
        paths.filter { path in
            guard path.hasPrefix("feeds/"), path.hasSuffix(".rss") || path.hasSuffix(".atom") || path.hasSuffix(".json") else {
                return false
            }
            let new = try? Data(contentsOf: staging.appendingPathComponent(path))
            let old = try? Data(contentsOf: output.appendingPathComponent(path))
            return new != nil && new != old
        }.sorted()
    }

    /// After a publish: records `changed` (site paths of feeds) as pending for every hub, then, when the build pings
    /// (`"ping": "build"`, not offline), pings every hub with all it has pending.
    package func published(_ changed: [String]) async {
        let feeds = changed.map { baseURL.absoluteString + $0 }
        let pingsNow = settings.ping == .build && http != nil
        guard !feeds.isEmpty || pingsNow else { return }
        var pending = PendingPings()
        do {
            try await updateRecord { record in
                record.add(feeds, for: settings.hubs.map(\.absoluteString))
                pending = record
            }
        } catch {
            logger.warning("\(PendingPings.location(cache: cache).path): cannot record the feeds to ping (\(FileProblem.describe(error))); the hubs are told now only")
            pending.add(feeds, for: settings.hubs.map(\.absoluteString))
        }
        if !pingsNow {
            if !feeds.isEmpty {
                let why = http == nil ? "offline" : "`newsgen ping` tells the hubs after the upload"
                logger.info("WebSub: \(Self.feedCount(feeds.count)) changed, recorded for the hubs (\(why))")
            }
            return
        }
        _ = await ping(pending)
    }

    /// Pings every hub with the feeds it has pending (`newsgen ping`).
    public func pingPending() async throws -> Report {
        var pending = PendingPings()
        try await updateRecord { pending = $0 }
        return await ping(pending)
    }

    /// Sends `pending`'s pings, hubs in site.json's order, and takes those accepted off the record.
    private func ping(_ pending: PendingPings) async -> Report {
        guard let http else { return Report() }
        var report = Report()
        let hubs = settings.hubs.map(\.absoluteString)
        // Hubs site.json no longer names are dropped with their feeds.
        let dropped = pending.feeds.keys.filter { !hubs.contains($0) }.sorted()
        await withTaskGroup(of: (String, [String], WebSubHub.Outcome).self) { group in
            for hub in settings.hubs {
                let feeds = pending.feeds[hub.absoluteString] ?? []
                guard !feeds.isEmpty else { continue }
                group.addTask {
                    let outcome = await WebSubHub(url: hub, http: http).publish(feeds.compactMap(URL.init(string:)), timeout: timeout)
                    return (hub.absoluteString, feeds, outcome)
                }
            }
            var answers: [String: ([String], WebSubHub.Outcome)] = [:]
            for await (hub, feeds, outcome) in group { answers[hub] = (feeds, outcome) }
            for hub in hubs {
                guard let (feeds, outcome) = answers[hub] else { continue }
                switch outcome {
                case .accepted(let status):
                    report.accepted.append((hub, feeds))
                    logger.info("WebSub: \(hub) accepted (\(status)) a ping for \(Self.feedCount(feeds.count)): \(feeds.joined(separator: " "))")
                case .failed(let reason):
                    report.failed.append(hub)
                    logger.warning("WebSub hub \(hub): \(reason); its \(Self.feedCount(feeds.count)) stay pending for the next build or `newsgen ping`")
                }
            }
        }
        guard !report.accepted.isEmpty || !dropped.isEmpty else { return report }
        do {
            try await updateRecord { record in
                for (hub, feeds) in report.accepted { record.remove(feeds, for: hub) }
                for hub in dropped { record.feeds[hub] = nil }
            }
        } catch {
            logger.warning("\(PendingPings.location(cache: cache).path): cannot record the pings sent (\(FileProblem.describe(error))); they may be sent again")
        }
        return report
    }

    /// Reads the record, lets `change` edit it and writes it back, under the record's lock. A record that cannot be read
    /// is set aside as `….corrupt` (a warning) and an empty one used.
    private func updateRecord(_ change: (inout PendingPings) -> Void) async throws {
        let file = PendingPings.location(cache: cache)
        let lock = try await BuildLock(path: PendingPings.lockLocation(cache: cache), wait: true)
        defer { withExtendedLifetime(lock) {} }
        var record: PendingPings
        do {
            record = try PendingPings.load(from: file)
        } catch {
            let aside = file.appendingPathExtension("corrupt")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: file, to: aside)
            logger.warning("\(file.path): not a record of pending WebSub pings (\(FileProblem.describe(error))); set aside as \(aside.lastPathComponent), starting a new one")
            record = PendingPings()
        }
        let before = record
        change(&record)
        if record != before { try record.save(to: file) }
    }

    static func feedCount(_ count: Int) -> String {
        count == 1 ? "1 feed" : "\(count) feeds"
    }
}
