/// What an element's `class` and `id` say about it, by the words sites use for their parts: "article-body" is
/// likely the story, "comment-list" and "share-bar" are not. Matching is case-insensitive and by substring, as
/// the words appear inside longer names ("sidebar-left", "js-comments").
enum ClassHints {
    /// Parts of a page that are almost never the story: removed before scoring unless `mayBeContent` also matches.
    static let unlikely = Words([
        "-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment", "community", "cover-wrap", "disqus", "extra",
        "footer", "gdpr", "header", "legends", "menu", "related", "remark", "replies", "rss", "shoutbox", "sidebar",
        "skyscraper", "social", "sponsor", "supplemental", "ad-break", "agegate", "pagination", "pager", "popup",
        "yom-remote", "cookie", "consent",
    ])

    /// Words that keep an element an unlikely word matched ("main-header-and-body").
    static let mayBeContent = Words(["and", "article", "body", "column", "content", "main", "mathjax", "shadow"])

    /// Class or id words of the story's container: +25 to its weight.
    static let positive = Words([
        "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "pagination", "post", "text",
        "blog", "story",
    ])

    /// Class or id words of everything around the story: -25 to its weight.
    static let negative = Words([
        "-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "foot", "footer", "footnote", "gdpr",
        "masthead", "media", "meta", "outbrain", "promo", "related", "scroll", "share", "shoutbox", "sidebar",
        "skyscraper", "sponsor", "shopping", "tags", "widget", "cookie", "consent",
    ], token: "hid")

    /// Cookie and consent banners: removed on every attempt, whatever else the element's names say.
    static let consent = Words(["cookie", "consent", "gdpr", "cmp-", "onetrust", "didomi", "truste", "qc-cmp"])

    /// Bylines: `class="byline"`, `id="author-name"` and the like.
    static let byline = Words(["byline", "author", "dateline", "writtenby", "p-author"])

    /// ARIA roles of navigation, complementary content and dialogs.
    static let unlikelyRoles: Set<String> = ["menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog"]

    /// The +25/-25 weight of one class or id value.
    static func weight(of name: String) -> Int {
        guard !name.isEmpty else { return 0 }
        var weight = 0
        if negative.matches(name) { weight -= 25 }
        if positive.matches(name) { weight += 25 }
        return weight
    }

    /// Share buttons and bars: "share" or "sharedaddy" as a word of its own (or after or before `_`).
    static func isShareElement(_ names: String) -> Bool {
        let bytes = Array(names.utf8.map(Words.lowercase))
        for word in [Array("sharedaddy".utf8), Array("share".utf8)] {
            var index = 0
            while index + word.count <= bytes.count {
                if bytes[index..<index + word.count].elementsEqual(word) {
                    let before = index == 0 ? UInt8(ascii: " ") : bytes[index - 1]
                    let after = index + word.count == bytes.count ? UInt8(ascii: " ") : bytes[index + word.count]
                    if (!isWordByte(before) || before == UInt8(ascii: "_")) && (!isWordByte(after) || after == UInt8(ascii: "_")) {
                        return true
                    }
                }
                index += 1
            }
        }
        return false
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_")
    }

    /// A list of lowercase ASCII words looked for as substrings, and optionally one word that must stand alone
    /// (separated by spaces).
    struct Words: Sendable {
        let words: [[UInt8]]
        let token: String?

        init(_ words: [String], token: String? = nil) {
            self.words = words.map { Array($0.utf8) }
            self.token = token
        }

        static func lowercase(_ byte: UInt8) -> UInt8 {
            byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }

        func matches(_ text: String) -> Bool {
            guard !text.isEmpty else { return false }
            var text = text
            return text.withUTF8 { raw in
                let count = raw.count
                for word in words where word.count <= count {
                    let first = word[0]
                    var index = 0
                    search: while index + word.count <= count {
                        if Self.lowercase(raw[index]) == first {
                            for offset in 1..<word.count where Self.lowercase(raw[index + offset]) != word[offset] {
                                index += 1
                                continue search
                            }
                            return true
                        }
                        index += 1
                    }
                }
                if let token {
                    // The token alone, between spaces or the ends.
                    let word = Array(token.utf8)
                    var index = 0
                    while index + word.count <= count {
                        let startsToken = index == 0 || raw[index - 1] == 0x20
                        let endsToken = index + word.count == count || raw[index + word.count] == 0x20
                        if startsToken, endsToken, (0..<word.count).allSatisfy({ Self.lowercase(raw[index + $0]) == word[$0] }) {
                            return true
                        }
                        index += 1
                    }
                }
                return false
            }
        }
    }
}
