import Foundation

/// Small text utilities shared by the readers and writers.
package enum Text {
    /// Collapses every run of white space (including non-breaking spaces) to one space and trims the ends.
    package static func collapsingWhitespace(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace || scalar == "\u{00A0}" {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.unicodeScalars.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Removes the characters XML 1.0 forbids (C0 controls other than tab, newline and
    /// carriage return, and U+FFFE/U+FFFF), so that any text can be written into a page or feed.
    package static func removingForbiddenCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !isAllowedInXML($0) }) else { return text }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: text.unicodeScalars.filter(isAllowedInXML))
        return String(result)
    }

    package static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Whether a text holds a space, tab, line feed, form feed or carriage return (which a URL never does).
    package static func containsASCIIWhitespace(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D }
    }

    /// Text from a server's error answer, fit for one log line and a page: one line, no
    /// character XML forbids, at most `limit` characters.
    package static func serverMessage(_ text: String, limit: Int = 200) -> String {
        excerpt(collapsingWhitespace(removingForbiddenCharacters(text)), limit: limit)
    }

    /// A plain-text excerpt of at most `limit` characters, cut at a word boundary with an ellipsis.
    package static func excerpt(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        let prefix = text.prefix(limit)
        let cut = prefix.lastIndex(of: " ").map { prefix[..<$0] } ?? prefix
        return cut.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters)) + "…"
    }
}
