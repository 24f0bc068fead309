import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenConfig

@Suite("site.json")
struct SiteConfigTests {
    let folder = URL(fileURLWithPath: "/srv/site")

    func decode(_ json: String) throws(ConfigError) -> SiteConfig {
        try SiteConfig.decode(Data(json.utf8), file: folder.appendingPathComponent("site.json"), displayPath: "site.json")
    }

    func error(_ json: String) -> String {
        do {
            _ = try decode(json)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test("only sources is required; everything else has its default")
    func defaults() throws {
        let config = try decode(#"{"sources": []}"#)
        #expect(config.title == "Morning Brief")
        #expect(config.baseURL.absoluteString == "https://news.example.org/")
        #expect(config.language == "en")
        #expect(config.output.path == "/srv/site/public")
        #expect(config.templates.path == "/srv/site/Templates")
        #expect(config.cache.path == "/srv/site/.newsgen/cache.sqlite")
        #expect(config.saved.map(\.path) == ["/srv/site/saved.json"])
        #expect(!config.savedIsExplicit)
        #expect(config.articlesPerSource == 10)
        #expect(config.maxCacheAgeDays == 7)
        #expect(config.keepDays == 30)
        #expect(config.refreshMinutes == 15)
        #expect(config.newsapi == NewsAPISettings.defaults)
    }

    @Test("language takes any well-formed language tag (LanguageTag's rule)", arguments: ["en", "pt-BR", "zh-Hant-TW", "es-419"])
    func languageTags(tag: String) throws {
        #expect(try decode(#"{"sources": [], "language": "\#(tag)"}"#).language == tag)
    }

    @Test("the contract's example decodes, with every source kind")
    func example() throws {
        let config = try decode("""
            {"title": "Morning Brief", "baseURL": "https://news.example.org", "output": "/var/www/news",
             "saved": ["phone.json", "laptop.json"],
             "newsapi": { "baseURL": "https://newsapi.org/v2", "apiKeyEnv": "NEWS_API_KEY", "refreshMinutes": 60 },
             "sources": [
               { "id": "bbc-news", "newsapi": "bbc-news" },
               { "id": "us-business", "name": "US Business", "newsapi": { "country": "us", "category": "business" } },
               { "id": "swift", "name": "Swift news", "newsapi": { "q": "swift programming" } },
               { "id": "hn", "name": "Hacker News", "feed": "https://hnrss.org/frontpage", "category": "technology" },
               { "id": "local", "name": "Local sample", "feed": "Samples/feeds/local.xml" },
               { "id": "team", "name": "Team news", "json": "https://api.example.org/news" }
             ]}
            """)
        #expect(config.baseURL.absoluteString == "https://news.example.org/", "a trailing slash is added")
        #expect(config.output.path == "/var/www/news")
        #expect(config.saved.map(\.lastPathComponent) == ["phone.json", "laptop.json"])
        #expect(config.savedIsExplicit)
        #expect(config.sources.map(\.id) == ["bbc-news", "us-business", "swift", "hn", "local", "team"])
        #expect(config.sources[0].kind == .newsapi(.source("bbc-news")))
        #expect(config.sources[1].kind == .newsapi(.topHeadlines(["country": "us", "category": "business"])))
        #expect(config.sources[2].kind == .newsapi(.everything(["q": "swift programming"])))
        #expect(config.sources[3].kind == .feed(.remote(URL(string: "https://hnrss.org/frontpage")!)))
        #expect(config.sources[4].kind == .feed(.file(URL(fileURLWithPath: "/srv/site/Samples/feeds/local.xml"))))
        #expect(config.sources[5].kind == .json(.remote(URL(string: "https://api.example.org/news")!)))
    }

    @Test("errors name the file, the key path and what was expected", arguments: [
        (#"{}"#, "site.json:1:1: sources: is required"),
        (#"{"sources": {}}"#, "site.json:1:2: sources: expected an array of sources, found an object"),
        (#"{"sources": [], "titel": "x"}"#, "site.json:1:17: titel: unknown key; did you mean title?"),
        (#"{"sources": [{"id": "a", "fead": "x.xml"}]}"#, "site.json:1:26: sources[0].fead: unknown key; did you mean feed?"),
        (#"{"sources": [{"id": "a", "feed": "x.xml"}, {"id": "b"}, {"id": "c", "feed": "ftp://x/y"}]}"#, "site.json:1:44: sources[1]: expected exactly one of feed, newsapi or json, found none"),
        (#"{"sources": [{"id": "c", "feed": "ftp://x/y"}]}"#, "site.json:1:26: sources[0].feed: expected a URL or a path"),
        (#"{"sources": [{"id": "c", "feed": ""}]}"#, "site.json:1:26: sources[0].feed: expected a URL or a path"),
        (#"{"sources": [{"id": "c", "feed": 3}]}"#, "site.json:1:26: sources[0].feed: expected a string, found a number"),
        (#"{"sources": [{"id": "Bad Id", "feed": "x"}]}"#, "site.json:1:15: sources[0].id: expected lowercase letters"),
        (#"{"sources": [{"id": "a", "feed": "x"}, {"id": "a", "feed": "y"}]}"#, "site.json:1:41: sources[1].id: \"a\" is already the id of sources[0]"),
        (#"{"sources": [{"id": "a", "feed": "x", "newsapi": "y"}]}"#, "site.json:1:14: sources[0]: expected exactly one of feed, newsapi or json, found feed and newsapi"),
        (#"{"sources": [], "baseURL": "news.example.org"}"#, "site.json:1:17: baseURL: expected an absolute http(s) URL"),
        (#"{"sources": [], "articlesPerSource": 0}"#, "site.json:1:17: articlesPerSource: expected a whole number from 1 to 1000, found 0"),
        (#"{"sources": [], "maxCacheAgeDays": 1.5}"#, "site.json:1:17: maxCacheAgeDays: expected a whole number"),
        (#"{"sources": [], "newsapi": {"apiKey": "secret"}}"#, "site.json:1:29: newsapi.apiKey: unknown key; did you mean apiKeyEnv?"),
        (#"{"sources": [{"id": "n", "newsapi": {"page": 2}}]}"#, "site.json:1:38: sources[0].newsapi.page: unknown key"),
        (#"{"sources": [{"id": "n", "newsapi": {}}]}"#, "site.json:1:37: sources[0].newsapi: expected q (for everything), or country"),
        (#"{"sources": [], "saved": 5}"#, "site.json:1:17: saved: expected a path or an array of paths, found a number"),
        (#"{"sources": [], "language": "english!"}"#, "site.json:1:17: language: expected a language tag"),
        (#"{"sources": [], "language": "e"}"#, "site.json:1:17: language: expected a language tag such as en or pt-BR"),
        (#"{"sources": [] "#, "site.json:1:16: expected ',' or '}' after an object member, found the end of the file"),
        (#"[]"#, "site.json:1:1: expected an object, found an array"),
    ])
    func errors(json: String, expected: String) {
        let message = error(json)
        #expect(message.hasPrefix(expected), "got: \(message)")
    }

    @Test("JSON that is broken names the line and column and what was expected", arguments: [
        ("{\n  \"title\": \"News\",\n  \"sources\": [],\n}\n",
         "site.json:4:1: expected another member after ','; JSON allows no trailing comma"),
        ("{\n  \"title\": \"News\"\n  \"sources\": []\n}\n",
         "site.json:3:3: expected ',' or '}' after an object member, found '\"'"),
        ("", "site.json: is empty; expected a JSON object"),
        (" \n\n", "site.json: is empty; expected a JSON object"),
        ("{\n  \"title\": \"News,\n  \"sources\": []\n}\n",
         "site.json:2:18: expected '\"' to close the string before the end of the line (a line break inside a string is written \\n)"),
        ("{\"sources\": [], \"refreshMinutes\": fifteen}",
         "site.json:1:35: expected a value (an object, array, string, number, true, false or null), found fifteen"),
        ("{\"sources\": [], \"output\": 'public'}",
         "site.json:1:27: expected a value (an object, array, string, number, true, false or null), found '''; JSON strings use double quotes"),
        ("{\"sources\": [], \"title\": nul}", "site.json:1:26: expected null, found nul"),
    ])
    func syntax(json: String, expected: String) {
        #expect(error(json) == expected)
    }

    @Test("a syntax error carries its line and column as fields, printed as file:line:col")
    func syntaxFields() {
        do {
            _ = try decode("{\"sources\": [1 2]}")
            Issue.record("accepted")
        } catch {
            #expect(error.file == "site.json")
            #expect(error.position?.line == 1 && error.position?.column == 16)
            #expect(error.description == "site.json:1:16: expected ',' or ']' after an array element, found '2'")
            #expect(error.keyPath == "")
            #expect(error.message == "expected ',' or ']' after an array element, found '2'")
        }
    }

    @Test("a key error carries the line and column of the key as the parser read it, not of its text elsewhere")
    func keyPositions() throws {
        let json = """
            {
              "description": "titel",
              "title": "Caf\u{E9}", "titel": "x",
              "sources": []
            }
            """
        do {
            _ = try decode(json)
            Issue.record("accepted")
        } catch {
            #expect(error.file == "site.json")
            #expect(error.keyPath == "titel")
            #expect(error.position?.line == 3 && error.position?.column == 20, "\(String(describing: error.position))")
            #expect(error.description.hasPrefix("site.json:3:20: titel: unknown key; did you mean title? (allowed: "))
        }
        let nested = """
            {"sources": [
            \t{"id": "a", "name": "\u{1F4F0} News", "feed": "a.xml"},
            \t{"id": "b", "feed": "b.xml", "refreshMinutes": -1}
            ]}
            """
        #expect(error(nested) == "site.json:3:31: sources[1].refreshMinutes: expected a whole number from 0 to 10080, found -1")
        #expect(error(#"{"sources": [], "saved": ["a.json", 3]}"#) == "site.json:1:37: saved[1]: expected a path, found a number")
    }

    @Test("websub: hubs as absolute http(s) URLs, each once, pinged by the build unless \"ping\": \"manual\"; every mistake named")
    func websub() throws {
        #expect(try decode(#"{"sources": []}"#).websub == nil)
        let settings = try #require(try decode(#"{"sources": [], "websub": {"hubs": ["https://hub.example/", "https://hub.example/", "http://b.example/h"]}}"#).websub)
        #expect(settings.hubs.map(\.absoluteString) == ["https://hub.example/", "http://b.example/h"])
        #expect(settings.ping == .build)
        #expect(try decode(#"{"sources": [], "websub": {"hubs": ["https://h.example/"], "ping": "manual"}}"#).websub?.ping == .manual)
        #expect(error(#"{"sources": [], "websub": {}}"#).contains("websub.hubs: is required"))
        #expect(error(#"{"sources": [], "websub": {"hubs": []}}"#).contains("websub.hubs: expected a non-empty array of hub URLs, found an empty array"))
        #expect(error(#"{"sources": [], "websub": {"hubs": ["https://h.example/", "ftp://x"]}}"#)
                == "site.json:1:59: websub.hubs[1]: expected an absolute http(s) URL such as https://pubsubhubbub.appspot.com/")
        #expect(error(#"{"sources": [], "websub": {"hubs": ["https://h.example/"], "ping": "cron"}}"#).contains("websub.ping: expected \"build\""))
        #expect(error(#"{"sources": [], "websub": {"hub": ["https://h.example/"]}}"#).contains("websub.hub: unknown key; did you mean hubs?"))
    }

    @Test("errors name the file by the path given, else by its absolute path; never by its name alone")
    func filePath() {
        let file = URL(fileURLWithPath: "/srv/a/site.json")
        let json = Data(#"{"sources": [], "titel": "x"}"#.utf8)
        for (given, shown) in [(nil, "/srv/a/site.json"), ("../a/site.json", "../a/site.json")] {
            do {
                _ = try SiteConfig.decode(json, file: file, displayPath: given)
                Issue.record("accepted")
            } catch {
                #expect(error.file == shown)
                #expect(error.description.hasPrefix("\(shown):1:17: titel: unknown key"), "\(error.description)")
            }
        }
        do {
            _ = try SiteConfig.load(from: URL(fileURLWithPath: "/nonexistent/site.json"))
            Issue.record("loaded")
        } catch {
            #expect(error.description == "/nonexistent/site.json: cannot be read (no such file)")
        }
    }

    @Test("an unknown key lists the allowed ones")
    func allowedKeys() {
        #expect(error(#"{"sources": [], "colour": "red"}"#).contains("(allowed: title, description, baseURL"))
        #expect(error(#"{"sources": [], "groupStorys": false}"#).contains("groupStorys: unknown key; did you mean groupStories?"))
    }

    @Test("groupStories: stories about one event show once unless it is false; anything but true or false is an error")
    func groupStories() throws {
        #expect(try decode(#"{"sources": []}"#).groupStories)
        #expect(try decode(#"{"sources": [], "groupStories": true}"#).groupStories)
        #expect(try !decode(#"{"sources": [], "groupStories": false}"#).groupStories)
        #expect(error(#"{"sources": [], "groupStories": "no"}"#).hasPrefix("site.json:1:17: groupStories: expected true or false, found a string"))
    }

    @Test("a missing file is one clear line")
    func missingFile() {
        #expect(throws: ConfigError.self) { try SiteConfig.load(from: URL(fileURLWithPath: "/nonexistent/site.json")) }
    }

    @Test("source ids and URL schemes are told as the regular expressions they replaced told them")
    func idsAndSchemes() {
        let ids = ["a", "bbc-news", "a_b-c9", "9", "-a", "_a", "A", "aB", "a b", "é", "a.b", "", String(repeating: "a", count: 64),
                   String(repeating: "a", count: 65), "a/b", "a\u{0}"]
        for id in ids {
            let pattern = id.range(of: #"^[a-z0-9][a-z0-9_-]{0,63}$"#, options: .regularExpression) != nil
            #expect(SiteConfig.isSourceID(id) == pattern, "\(id.debugDescription)")
        }
        // The regular expression's `$` also matched before a final line break: an id never has one.
        #expect(!SiteConfig.isSourceID("a\n"))

        let raws = ["http://x", "HTTPS://x", "ftp://x/y", "c:\\feeds", "file:x", "a+b.c-d:x", "1http:x", "feeds/a:b.xml", "./x:y",
                    ":x", "h t:x", "x", "", "é:x", "Z9:", "a_b:x"]
        for raw in raws {
            let pattern = raw.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*:"#, options: .regularExpression).map { raw[$0].dropLast().lowercased() }
            #expect(SiteConfig.scheme(of: raw) == pattern, "\(raw.debugDescription)")
        }
    }

    @Test("a feed's path is resolved against the site's folder, whether or not it exists")
    func feedPaths() throws {
        let config = try decode(#"{"sources": [{"id": "a", "feed": "feeds/a.xml"}, {"id": "b", "feed": "/tmp"}, {"id": "c", "feed": "~/c.xml"}]}"#)
        #expect(config.sources[0].kind == .feed(.file(URL(fileURLWithPath: "/srv/site/feeds/a.xml"))))
        #expect(config.sources[1].kind == .feed(.file(URL(fileURLWithPath: "/tmp", isDirectory: false))))
        #expect(config.sources[2].kind == .feed(.file(URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("c.xml"))))
    }
}
