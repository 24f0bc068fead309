import Testing
import NewsgenModel
@testable import NewsgenFetch

/// The `language` NewsAPI is asked for, from the site's language tag: the primary language
/// subtag by `LanguageTag`'s rule, lowercased.
@Suite("NewsAPI language")
struct NewsAPILanguageTests {
    @Test("a well-formed tag is asked for by its primary language, lowercased", arguments: [
        ("en", "en"),
        ("EN", "en"),
        ("pt-BR", "pt"),
        ("PT-br", "pt"),
        ("zh-Hant-TW", "zh"),
        ("es-419", "es"),
        ("de-CH-1996", "de"),
        ("en-US-x-twain", "en"),
        ("haw", "haw"),
    ])
    func wellFormed(tag: String, expected: String) {
        #expect(NewsAPIProvider.newsAPILanguage(tag) == expected)
    }

    @Test("a tag LanguageTag rejects is passed on whole, lowercased, not cut at its first dash", arguments: [
        ("", ""),
        ("EN_GB", "en_gb"),
        ("en-", "en-"),
        ("EN--US", "en--us"),
        ("e", "e"),
        ("1en-US", "1en-us"),
    ])
    func rejected(tag: String, expected: String) {
        #expect(!LanguageTag.isWellFormed(tag))
        #expect(NewsAPIProvider.newsAPILanguage(tag) == expected)
    }
}
