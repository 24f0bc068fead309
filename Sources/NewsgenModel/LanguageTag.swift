/// newsgen's one rule for language tags (site.json `language`, `newsgen sources --language`, `html-lang`): BCP 47
/// well-formedness, pragmatically. A primary subtag of 2–3 letters (or 5–8, reserved by RFC 5646), then subtags of
/// 1–8 letters or digits separated by `-`, in any case. Later subtags are not told apart and the IANA registry is
/// not consulted (`zz` passes). Rejected: `e`, `abcd`, `1en`, `en_GB`, `en-`, `en--US`, `en-abcdefghi`, non-ASCII.
public enum LanguageTag {

    /// Whether `text` is a well-formed language tag, such as `en`, `pt-BR` or `zh-Hant-TW`.
    public static func isWellFormed(_ text: String) -> Bool {
        var subtags = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false).makeIterator()
        guard let primary = subtags.next(), [2, 3, 5, 6, 7, 8].contains(primary.count), primary.allSatisfy(Text.isASCIILetter) else {
            return false
        }
        while let subtag = subtags.next() {
            guard (1...8).contains(subtag.count), subtag.allSatisfy({ Text.isASCIILetter($0) || Text.isASCIIDigit($0) }) else { return false }
        }
        return true
    }

    /// The lowercased primary subtag of a well-formed tag (`pt-BR` → `pt`); `nil` when `isWellFormed` rejects it.
    public static func primaryLanguage(of text: String) -> String? {
        guard isWellFormed(text) else { return nil }
        return String(text.prefix { $0 != "-" }).lowercased()
    }
}
