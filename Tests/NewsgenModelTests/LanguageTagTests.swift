import Testing
@testable import NewsgenModel

@Suite("Language tags")
struct LanguageTagTests {
    @Test("well-formed BCP 47 tags pass", arguments: [
        "en", "EN", "pt-BR", "pt-br", "zh-Hant-TW", "sr-Latn", "es-419", "de-DE-1996", "sl-rozaj",
        "yue", "haw", "zh-yue", "en-US-x-twain", "de-CH-u-co-phonebk", "abcde", "abcdefgh", "zz",
    ])
    func accepted(_ tag: String) {
        #expect(LanguageTag.isWellFormed(tag))
    }

    @Test("malformed tags are refused", arguments: [
        "", "e", "x", "abcd", "abcdefghi", "1en", "en_GB", "english!", "en-", "-en", "en--US",
        "en-abcdefghi", " en", "en ", "en-US ", "x-klingon", "é", "en-ÜS", "en.US", "pt-BR\n",
    ])
    func refused(_ tag: String) {
        #expect(!LanguageTag.isWellFormed(tag))
    }
}
