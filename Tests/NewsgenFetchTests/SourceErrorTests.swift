import Foundation
import Testing
@testable import NewsgenModel
@testable import NewsgenFetch

/// SourceError's fields, and the two sentences it prints: `message` for the pages (no server
/// paths, no key) and `description` for the log.
@Suite("Source errors")
struct SourceErrorTests {
    @Test("each case prints the sentence users and the README know", arguments: [
        (SourceError.httpStatus(503, host: "hnrss.org"), "HTTP 503 from hnrss.org"),
        (.httpStatus(503, host: "127.0.0.1", attempts: 3), "HTTP 503 from 127.0.0.1 (3 attempts)"),
        (.httpStatus(400, host: "api.example.org", serverMessage: "bad query"), "HTTP 400 from api.example.org: bad query"),
        (.transport(.timedOut(seconds: 30)), "no complete answer within 30 s"),
        (.transport(.connection("connection refused"), host: "127.0.0.1", attempts: 3), "connection refused from 127.0.0.1 (3 attempts)"),
        (.transport(.tooLarge(limit: 10 * 1_048_576)), "the response is larger than 10 MiB"),
        (.transport(.tooManyRedirects), "too many redirects"),
        (.transport(.badEncoding), "the response's gzip or deflate encoding is damaged"),
        (.budgetExhausted(seconds: 120), "stopped by the 120 s fetch budget"),
        (.redirectRefused(status: 301, host: "newsapi.org"),
         "HTTP 301 from newsapi.org: NewsAPI requests do not follow redirects (the key would go along); check newsapi.baseURL"),
        (.notAFeed(reason: "not an RSS, Atom or JSON feed (found an HTML page)"), "not an RSS, Atom or JSON feed (found an HTML page)"),
        (.badPayload(.noNewsList, name: "api.example.org"), "api.example.org has no \"news\" list (expected {\"status\": \"ok\", \"news\": […]})"),
        (.badPayload(.status("error", detail: "quota"), name: "api.example.org"), "api.example.org answered with status \"error\": quota"),
        (.missingList("articles", host: "newsapi.org"), "NewsAPI's answer from newsapi.org has no list of articles"),
        (.newsAPI(code: "rateLimited", explanation: "too many requests in a short time; NewsAPI asks to back off for a while",
                  serverMessage: "Slow down", status: 429, attempts: 2),
         "NewsAPI rateLimited: too many requests in a short time; NewsAPI asks to back off for a while (NewsAPI: \"Slow down\") (2 attempts)"),
        (.providerUnavailable(reason: "NEWS_API_KEY is not set"), "NEWS_API_KEY is not set"),
        (.offline, "not fetched: offline"),
        (.wrongKind(expected: "a feed source"), "is not a feed source"),
    ])
    func sentences(error: SourceError, expected: String) {
        #expect(error.message == expected)
        #expect(error.description == expected)
    }

    @Test("a local file's path is in the log line only; the pages get its name")
    func localFile() {
        let file = URL(fileURLWithPath: "/srv/site/feeds/local.xml")
        let missing = SourceError.localFile(.unreadable("no such file"), file: file)
        #expect(missing.message == "cannot read local.xml (no such file)")
        #expect(missing.description == "cannot read /srv/site/feeds/local.xml (no such file)")
        let large = SourceError.localFile(.tooLarge(limit: 10 * 1_048_576), file: file)
        #expect(large.message == "local.xml is larger than 10 MiB")
        #expect(large.description == "/srv/site/feeds/local.xml is larger than 10 MiB")
        let payload = SourceError.badPayload(.notAnObject, name: "news.json", path: "/srv/site/news.json")
        #expect(payload.message.hasPrefix("news.json is not a JSON object"))
        #expect(payload.description.hasPrefix("/srv/site/news.json is not a JSON object"))
    }

    @Test("the HTTP status is a field, for the cache; attempts too")
    func fields() {
        #expect(SourceError.httpStatus(503, host: "a", attempts: 3).status == 503)
        #expect(SourceError.httpStatus(503, host: "a", attempts: 3).attempts == 3)
        #expect(SourceError.redirectRefused(status: 302, host: "a").status == 302)
        #expect(SourceError.transport(.timedOut(seconds: 30)).status == nil)
        #expect(SourceError.budgetExhausted(seconds: 120).status == nil)
        #expect(SourceError("HTTP 503", status: 503).status == 503)
    }
}
