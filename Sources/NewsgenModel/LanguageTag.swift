/// newsgen's one rule for language tags (site.json's `language`, `newsgen sources --language`,
/// and the `html-lang` check of pages): BCP 47 well-formedness, pragmatically.
///
/// A tag is a primary language subtag of 2–3 letters (or 5–8, as RFC 5646 reserves for
/// registration), then any number of subtags of 1–8 letters or digits separated by `-`: a script
/// (`Hant`, 4 letters), a region (`BR`, 2 letters, or `419`, 3 digits), variants (`1996`), and
/// extensions or private use (`u-ca-buddhist`, `x-twain`). Case does not matter. The subtags after
/// the first are not told apart, so `en-Latn-US` and `en-US-Latn` both pass, and nothing is looked
/// up in the IANA registry: `zz` is well-formed.
///
/// Rejected: one letter (`e`, `x`), four letters (`abcd`), a digit first (`1en`), an underscore
/// (`en_GB`), an empty or over-long subtag (`en-`, `en--US`, `en-abcdefghi`), anything not ASCII.
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

    /// The primary language subtag of a well-formed tag, lowercased (`pt-BR` → `pt`, `EN` → `en`);
    /// `nil` for anything `isWellFormed` rejects.
    public static func primaryLanguage(of text: String) -> String? {
        guard isWellFormed(text) else { return nil }
        return String(text.prefix { $0 != "-" }).lowercased()
    }
}
