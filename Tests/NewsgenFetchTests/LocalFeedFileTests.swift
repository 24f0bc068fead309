import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenFetch
import NewsgenTestSupport

/// A local feed file that is still the file last read is not read again (like an HTTP 304),
/// and any change to it (new bytes, the same size edited in place, a touch, a replacement) is.
@Suite("Local feed files")
struct LocalFeedFileTests {
    static func feed(_ title: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Desk</title><link>https://example.com/</link><description>D</description>
            <item><title>\(title)</title><link>https://example.com/1</link><pubDate>Sat, 21 Nov 2026 09:00:00 GMT</pubDate></item>
            </channel></rss>
            """.utf8)
    }

    let file: URL
    let source: SourceConfig
    /// Reads with a clock an hour ahead, so the file written just now counts as settled.
    let provider = FeedProvider(http: nil, articlesPerSource: 10, retry: .none, now: { Date().addingTimeInterval(3600) })

    init() throws {
        file = try TestSupport.temporaryFolder().appendingPathComponent("desk.xml")
        try Self.feed("Harbour reopens").write(to: file)
        source = SourceConfig(id: "desk", kind: .feed(.file(file)))
    }

    /// The title read, or `nil` for "not modified"; and the validator to send next time.
    func fetch(etag: String?) async throws -> (title: String?, etag: String?) {
        switch try await provider.fetch(FetchRequest(source: source, etag: etag)) {
        case .fetched(let content): (content.articles.first?.title, content.etag)
        case .notModified: (nil, etag)
        }
    }

    /// Waits (briefly) until the wall clock is past the file's change time, so that a change
    /// made now gets a timestamp of its own even on a coarse clock.
    func waitForNextTick() async throws {
        let changed = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
        for _ in 0..<100 where Date().timeIntervalSince(changed) < 0.05 {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("an unchanged file is not read again: not modified, with the same validator")
    func unchanged() async throws {
        let first = try await fetch(etag: nil)
        #expect(first.title == "Harbour reopens")
        let validator = try #require(first.etag, "a settled file has a validator")
        #expect(validator.hasPrefix("file "))
        let second = try await fetch(etag: validator)
        #expect(second.title == nil, "not modified")
    }

    @Test("new bytes of another size are read")
    func edited() async throws {
        let validator = try #require(try await fetch(etag: nil).etag)
        try Self.feed("Harbour reopens to ships").write(to: file)
        #expect(try await fetch(etag: validator).title == "Harbour reopens to ships")
    }

    @Test("the same size edited in place, the modification time put back, is read")
    func editedInPlace() async throws {
        let validator = try #require(try await fetch(etag: nil).etag)
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
        try await waitForNextTick()
        let handle = try FileHandle(forWritingTo: file)
        let offset = try #require(Self.feed("Harbour reopens").range(of: Data("Harbour".utf8))?.lowerBound)
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data("Seaport".utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int == Self.feed("Harbour reopens").count)
        #expect(try await fetch(etag: validator).title == "Seaport reopens")
    }

    @Test("a touched file is read")
    func touched() async throws {
        let validator = try #require(try await fetch(etag: nil).etag)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: file.path)
        #expect(try await fetch(etag: validator).title == "Harbour reopens")
    }

    @Test("a file replaced by another (saved by rename) is read")
    func replaced() async throws {
        let validator = try #require(try await fetch(etag: nil).etag)
        try Self.feed("Harbour closes").write(to: file, options: .atomic)
        #expect(try await fetch(etag: validator).title == "Harbour closes")
    }

    @Test("a file changed less than two seconds before it is read gets no validator, so it is read next time too")
    func settling() async throws {
        let now = FeedProvider(http: nil, articlesPerSource: 10, retry: .none)
        guard case .fetched(let content) = try await now.fetch(FetchRequest(source: source)) else {
            Issue.record("not read")
            return
        }
        #expect(content.etag == nil)
    }

    @Test("another article limit is another reading of the same file")
    func otherSettings() async throws {
        let validator = try #require(try await fetch(etag: nil).etag)
        let fewer = FeedProvider(http: nil, articlesPerSource: 5, retry: .none, now: { Date().addingTimeInterval(3600) })
        guard case .fetched = try await fewer.fetch(FetchRequest(source: source, etag: validator)) else {
            Issue.record("a file read with other settings was not read again")
            return
        }
    }
}
