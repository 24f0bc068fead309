import Foundation
import Testing
@testable import NewsgenConfig
import NewsgenModel
import NewsgenTestSupport

/// `timeoutSeconds` (site-wide and per source) and `fetchBudgetSeconds` in site.json.
@Suite("Deadlines in site.json")
struct TimeoutConfigTests {
    func decode(_ json: String) throws(ConfigError) -> SiteConfig {
        try SiteConfig.decode(Data(json.utf8), file: URL(fileURLWithPath: "/srv/news/site.json"))
    }

    func failure(_ json: String) -> ConfigError? {
        do {
            _ = try decode(json)
            return nil
        } catch {
            return error
        }
    }

    @Test("by default a request has 30 s and the fetch stage 120 s")
    func defaults() throws {
        let config = try decode(#"{"sources": [{"id": "hn", "feed": "https://hnrss.org/frontpage"}]}"#)
        #expect(config.timeoutSeconds == 30)
        #expect(config.fetchBudgetSeconds == 120)
        #expect(config.sources[0].timeoutSeconds == nil)
        #expect(config.timeoutSeconds(for: config.sources[0]) == 30)
    }

    @Test("site-wide and per-source values, fractions allowed")
    func values() throws {
        let config = try decode("""
            {"timeoutSeconds": 10, "fetchBudgetSeconds": 45.5,
             "sources": [{"id": "slow", "feed": "https://slow.example/feed", "timeoutSeconds": 2.5},
                         {"id": "hn", "feed": "https://hnrss.org/frontpage"}]}
            """)
        #expect(config.timeoutSeconds == 10)
        #expect(config.fetchBudgetSeconds == 45.5)
        #expect(config.timeoutSeconds(for: config.sources[0]) == 2.5)
        #expect(config.timeoutSeconds(for: config.sources[1]) == 10)
    }

    @Test("a value that is not a positive number of seconds names the key and what was found", arguments: [
        (#"{"sources": [], "timeoutSeconds": 0}"#, "timeoutSeconds", "must be a positive number of seconds, such as 30; found 0"),
        (#"{"sources": [], "timeoutSeconds": -5}"#, "timeoutSeconds", "must be a positive number of seconds, such as 30; found -5"),
        (#"{"sources": [], "timeoutSeconds": "30"}"#, "timeoutSeconds", "must be a positive number of seconds, such as 30; found a string"),
        (#"{"sources": [], "timeoutSeconds": 7200}"#, "timeoutSeconds", "must be at most 3600 seconds; found 7200"),
        (#"{"sources": [], "fetchBudgetSeconds": 0}"#, "fetchBudgetSeconds", "must be a positive number of seconds, such as 120; found 0"),
        (#"{"sources": [{"id": "a", "feed": "a.xml", "timeoutSeconds": false}]}"#, "sources[0].timeoutSeconds",
         "must be a positive number of seconds, such as 30; found true or false"),
    ])
    func invalid(json: String, keyPath: String, message: String) throws {
        let error = try #require(failure(json))
        #expect(error.keyPath == keyPath)
        #expect(error.message == message)
        // Each key is written once in these files, and on the first line.
        let key = keyPath.split(separator: ".").last.map(String.init) ?? keyPath
        let column = json.distance(from: json.startIndex, to: try #require(json.range(of: "\"\(key)\"")).lowerBound) + 1
        #expect(error.description == "/srv/news/site.json:1:\(column): \(keyPath): \(message)")
    }

    @Test("a misspelt key suggests the right one")
    func misspelt() throws {
        let error = try #require(failure(#"{"sources": [], "timeoutSecond": 5}"#))
        #expect(error.message.contains("did you mean timeoutSeconds?"), "got: \(error.message)")
    }
}
