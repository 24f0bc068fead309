import Foundation
import Testing
@testable import NewsgenFetch

/// robots.txt as RFC 9309 reads it, for newsgen's product token.
@Suite("robots.txt rules")
struct RobotsRulesTests {
    func rules(_ text: String) -> RobotsRules { RobotsRules(parsing: text, agent: "newsgen") }

    @Test("the group naming newsgen applies, not the * group; without one, the * group does")
    func groups() {
        let both = rules("User-agent: *\nDisallow: /\n\nUser-agent: Newsgen\nDisallow: /private\n")
        #expect(both.allows(path: "/news/1"))
        #expect(!both.allows(path: "/private/1"))
        let anyone = rules("User-agent: otherbot\nDisallow: /\n\nUser-agent: *\nDisallow: /drafts\n")
        #expect(anyone.allows(path: "/news/1"))
        #expect(!anyone.allows(path: "/drafts/1"))
        #expect(rules("User-agent: newsgenerator\nDisallow: /\n").allows(path: "/a"), "a longer name is another crawler")
    }

    @Test("several user-agent lines share one group; comments, blank Disallow and unknown lines change nothing")
    func groupSyntax() {
        let shared = rules("User-agent: a\nUser-agent: newsgen # us\nDisallow: /x\nSitemap: https://s.example/map\nCrawl-delay: 5\nDisallow: /y\n")
        #expect(!shared.allows(path: "/x"))
        #expect(!shared.allows(path: "/y"))
        #expect(rules("User-agent: newsgen\nDisallow:\n").allows(path: "/anything"))
        #expect(rules("").allows(path: "/anything"))
    }

    @Test("the longest match wins, and Allow wins a tie")
    func longestMatch() {
        let rules = rules("User-agent: *\nDisallow: /news\nAllow: /news/public\nDisallow: /same\nAllow: /same\n")
        #expect(!rules.allows(path: "/news/2026"))
        #expect(rules.allows(path: "/news/public/1"))
        #expect(rules.allows(path: "/same"))
    }

    @Test("* matches any run of characters and $ the end")
    func wildcards() {
        let rules = rules("User-agent: *\nDisallow: /*.pdf$\nDisallow: /*/print\nDisallow: /exact$\n")
        #expect(!rules.allows(path: "/files/report.pdf"))
        #expect(rules.allows(path: "/files/report.pdf?download=1"))
        #expect(!rules.allows(path: "/story/12/print"))
        #expect(!rules.allows(path: "/exact"))
        #expect(rules.allows(path: "/exactly"))
    }

    @Test("a URL is matched by its path and query, and the whole site by /")
    func urls() throws {
        let rules = rules("User-agent: *\nDisallow: /search?q=\n")
        #expect(!rules.allows(try #require(URL(string: "https://a.example/search?q=x"))))
        #expect(rules.allows(try #require(URL(string: "https://a.example/search"))))
        #expect(!RobotsRules.disallowAll.allows(try #require(URL(string: "https://a.example"))))
    }
}
