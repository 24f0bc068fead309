import NewsgenXML

/// How much text an element holds, measured as a reader sees it: trimmed, each run of whitespace counted as one
/// character, in UTF-16 code units (the unit the scoring thresholds were tuned in).
struct TextMeasure {
    private(set) var length = 0
    /// Commas of Latin, Arabic and CJK writing.
    private(set) var commas = 0
    private(set) var asciiCommas = 0
    private var pendingSpace = false

    /// Adds a run of text, continuing the previous one (whitespace across runs collapses too).
    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B:
                    if length > 0 { pendingSpace = true }
                    index += 1
                    continue
                case 0xC2 where index + 1 < count && bytes[index + 1] == 0xA0:
                    if length > 0 { pendingSpace = true }
                    index += 2
                    continue
                default:
                    break
                }
                if pendingSpace {
                    length += 1
                    pendingSpace = false
                }
                if byte < 0x80 {
                    length += 1
                    if byte == UInt8(ascii: ",") {
                        commas += 1
                        asciiCommas += 1
                    }
                    index += 1
                } else if byte >= 0xF0 {
                    length += 2
                    index += 4
                } else if byte >= 0xE0 {
                    // ，(U+FF0C) and 、-like CJK commas count as commas.
                    if index + 2 < count, byte == 0xEF, bytes[index + 1] == 0xBC, bytes[index + 2] == 0x8C { commas += 1 }
                    length += 1
                    index += 3
                } else {
                    // ، (U+060C)
                    if index + 1 < count, byte == 0xD8, bytes[index + 1] == 0x8C { commas += 1 }
                    length += 1
                    index += byte >= 0xC0 ? 2 : 1
                }
            }
        }
    }
}

extension HTMLTree {
    // Field by field: `self[index]` would copy a whole node (its strings and attributes) across the module boundary.
    func isText(_ index: Int) -> Bool { nodes[index].kind == .text }
    func isElement(_ index: Int) -> Bool { nodes[index].kind == .element }
    func text(_ index: Int) -> String { nodes[index].text }
    func firstChild(_ index: Int) -> Int { nodes[index].firstChild }
    func lastChild(_ index: Int) -> Int { nodes[index].lastChild }
    func nextNode(_ index: Int) -> Int { nodes[index].next }

    /// Whether `text` is empty or only whitespace (ASCII and no-break spaces: what pages put between elements).
    static func isBlank(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B: index += 1
                case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0xA0: index += 2
                case 0xE3 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && bytes[index + 2] == 0x80: index += 3
                default: return false
                }
            }
            return true
        }
    }

    /// The measure of all text below `index`.
    func measure(_ index: Int) -> TextMeasure {
        var measure = TextMeasure()
        if isText(index) {
            measure.add(text(index))
            return measure
        }
        forEachDescendant(of: index) { node in
            if isText(node) { measure.add(text(node)) }
        }
        return measure
    }

    func textLength(_ index: Int) -> Int { measure(index).length }

    /// The share of `index`'s text that sits in links; in-page links (`#section`) count for 30 %.
    func linkDensity(_ index: Int) -> Double {
        let total = textLength(index)
        guard total > 0 else { return 0 }
        var links = 0.0
        forEachDescendant(of: index) { node in
            guard isElement(node), name(node) == "a" else { return }
            let href = attribute("href", of: node) ?? ""
            let weight = href.count > 1 && href.hasPrefix("#") ? 0.3 : 1
            links += Double(textLength(node)) * weight
        }
        return links / Double(total)
    }

    /// Whether the text below `index` is empty or only whitespace.
    func hasNoText(_ index: Int) -> Bool {
        if isText(index) { return Self.isBlank(text(index)) }
        var empty = true
        forEachDescendant(of: index) { node in
            if empty, isText(node), !Self.isBlank(text(node)) { empty = false }
        }
        return empty
    }

    /// `class` and `id` joined by a space, as the hint lists are matched against them.
    func classAndID(_ index: Int) -> String {
        (attribute("class", of: index) ?? "") + " " + (attribute("id", of: index) ?? "")
    }

    /// The text below `index`, trimmed, with runs of whitespace as one space.
    func innerText(_ index: Int) -> String {
        textContent(of: index).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
