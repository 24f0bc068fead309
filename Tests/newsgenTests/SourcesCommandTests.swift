import Foundation
import Hummingbird
import NewsgenTestSupport
import Testing

/// `newsgen sources` against a loopback NewsAPI named by site.json's newsapi.baseURL.
extension CLITests {
    static let key = "nk-cli-5e8d2f71-test"

    /// A site folder whose site.json points newsapi.baseURL at `server`, and a fake NewsAPI there.
    func withSourcesServer(status: Int = 200, _ body: @Sendable (URL, RequestLog) async throws -> Void) async throws {
        let list = try TestSupport.fixture("newsapi/sources.json")
        let requests = RequestLog()
        try await withTestServer({ router in
            router.get("v2/top-headlines/sources") { request, _ in
                requests.record(request)
                if status != 200 {
                    return Response.newsAPIError("apiKeyInvalid", "Your API key is invalid or incorrect.", status: status)
                }
                return Response.json(list)
            }
        }) { server in
            let site = try TestSupport.temporaryFolder()
            try #"{"newsapi": {"baseURL": "\#(server.absoluteString)/v2"}, "sources": []}"#
                .write(to: site.appendingPathComponent("site.json"), atomically: true, encoding: .utf8)
            try await body(site, requests)
        }
    }

    @Test("sources: an aligned table of id, name, category and language; the key in the header only; cached for a day")
    func sourcesTable() async throws {
        try await withSourcesServer { site, requests in
            let run = try await newsgen(["sources"], in: site, environment: ["NEWS_API_KEY": Self.key])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            #expect(run.stdout == """
                ID               NAME             CATEGORY    LANGUAGE
                circuit-daily    Circuit Daily    technology  en
                meridian-wire    Meridian Wire    general     en
                northern-ledger  Northern Ledger  business    en
                touchline-sport  Touchline Sport  sports      en

                """)
            #expect(requests.all.count == 1)
            #expect(requests.all.first?.uri == "/v2/top-headlines/sources?language=en")
            #expect(requests.all.first?.headers["x-api-key"] == Self.key)

            let business = try await newsgen(["sources", "--category", "business"], in: site, environment: ["NEWS_API_KEY": Self.key])
            #expect(business.status == 0)
            #expect(business.stdout == "ID               NAME             CATEGORY  LANGUAGE\nnorthern-ledger  Northern Ledger  business  en\n")
            #expect(requests.all.count == 1, "the second run reads the cached list")
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(".newsgen/newsapi-sources.json").path))

            let german = try await newsgen(["sources", "--language", "de"], in: site, environment: ["NEWS_API_KEY": Self.key])
            #expect(german.status == 0)
            #expect(requests.all.last?.uri == "/v2/top-headlines/sources?language=de", "another language is fetched")
        }
    }

    @Test("sources --language takes a language tag (LanguageTag's rule): pt-BR asks NewsAPI for pt; e is a usage error")
    func sourcesLanguageTag() async throws {
        try await withSourcesServer { site, requests in
            let brazil = try await newsgen(["sources", "--language", "pt-BR"], in: site, environment: ["NEWS_API_KEY": Self.key])
            #expect(brazil.status == 0, "\(brazil.stderr)")
            #expect(requests.all.last?.uri == "/v2/top-headlines/sources?language=pt")

            let bad = try await newsgen(["sources", "--language", "e"], in: site, environment: ["NEWS_API_KEY": Self.key])
            #expect(bad.status == 2)
            #expect(bad.stderr.contains("--language expects a language tag, such as en or pt-BR."), "\(bad.stderr)")
            #expect(requests.all.count == 1)
        }
    }

    @Test("sources: no key, a rejected key, or an unknown category is one line on stderr and exit 1")
    func sourcesErrors() async throws {
        try await withSourcesServer { site, requests in
            let missing = try await newsgen(["sources"], in: site, environment: ["NEWS_API_KEY": ""])
            #expect(missing.status == 1)
            #expect(missing.stdout.isEmpty)
            #expect(missing.stderr == "newsgen: error: NEWS_API_KEY is not set: get a key at https://newsapi.org/register and export NEWS_API_KEY=…\n")
            #expect(requests.all.isEmpty)

            let unknown = try await newsgen(["sources", "--category", "gardening"], in: site, environment: ["NEWS_API_KEY": Self.key])
            #expect(unknown.status == 1)
            #expect(unknown.stderr == "newsgen: error: no en sources in category \"gardening\" (categories: business, general, sports, technology)\n")
        }
        try await withSourcesServer(status: 401) { site, _ in
            let rejected = try await newsgen(["sources"], in: site, environment: ["NEWS_API_KEY": Self.key])
            #expect(rejected.status == 1)
            #expect(rejected.stderr.hasPrefix("newsgen: error: NewsAPI apiKeyInvalid: the key in NEWS_API_KEY was not accepted"), "\(rejected.stderr)")
            #expect(rejected.stderr.split(separator: "\n").count == 1)
            #expect(!rejected.stderr.contains(Self.key))
        }
    }
}
