/// One piece of a compiled template, and where in the template it was read.
struct MustacheNode: Sendable {
    indirect enum Kind: Sendable {
        /// Literal text, at most one line: a partial's indentation is added before each line's first output.
        case text([UInt8])
        case variable(MustacheName, escaped: Bool)
        case section(MustacheName, [MustacheNode])
        case inverted(MustacheName, [MustacheNode])
        /// `{{>name}}`, or `{{<name}}` with the blocks it overrides; `indentation` when the tag stands alone on its line.
        case partial(String, indentation: [UInt8]?, overrides: [String: [MustacheNode]]?)
        /// `{{$name}}default{{/name}}` where a template is rendered.
        case block(String, default: [MustacheNode], indentation: [UInt8])
        /// `{{$name}}…{{/name}}` directly inside a parent tag: the block it overrides.
        case blockDefinition(String, [MustacheNode])
    }

    var kind: Kind
    /// The template bytes the node was read from: a text's own bytes, or a tag as written (an opening tag for sections,
    /// blocks and parents). Offsets keep nodes small; `TemplateSource` turns one into a line and column.
    var span: Range<Int32>
}

/// A tag's name, split at its dots once when the template is parsed.
struct MustacheName: Sendable {
    /// `{{.}}`: the current item.
    var isImplicit: Bool
    /// `{{.name}}`: looked up only in the current item, not up the context stack.
    var isAnchored: Bool
    var parts: [String]

    init(_ name: String) {
        isImplicit = name == "."
        isAnchored = !isImplicit && name.hasPrefix(".")
        parts = name.split(separator: ".").map(String.init)
    }
}

/// Why a template cannot be parsed, and the tag where (up to its close delimiter when its line has one, else as far as
/// read). `TemplateSource` makes it a sentence.
struct MustacheParseError: Error {
    enum Kind {
        /// No `expected` close delimiter follows the tag anywhere.
        case unfinished(expected: String)
        /// A close delimiter follows, but not straight after the name.
        case invalidName
        /// `{{reversed(x)}}`: a transform (a lambda call).
        case transform
        /// `{{>*name}}`.
        case dynamicName
        case invalidSetDelimiter
        /// A `{{%…}}` tag other than `{{%CONTENT_TYPE:HTML}}`.
        case invalidConfiguration
        /// A tag that is not a block, directly inside the parent tag at `parent`.
        case notInParent(parent: Range<Int32>)
        /// A section, block or parent open at the end of the file; `expected` closes it.
        case neverClosed(expected: String)
        case closesNothing
        /// A close tag for another name than the section opened at `open`; `expected` closes that.
        case closesAnother(open: Range<Int32>, expected: String)
        /// Offsets are 32-bit: a template has fewer than 2^31 bytes.
        case tooLarge
    }

    var kind: Kind
    var span: Range<Int32>
}

/// Parses a template into nodes. A standalone section, inverted section, comment, partial, parent, block or set-delimiter
/// tag takes its line with it, and a standalone partial is indented as the tag was.
struct MustacheParser {
    private struct State {
        /// The section, block or parent being read: its name and opening tag.
        var section: (name: String, tag: Range<Int>)?
        var newLine = true
        var isPartialDefinition = false
        var isPartialDefinitionTopLevel = false
        var partialDefinitionIndent: Int?
        var open: [UInt8] = Array("{{".utf8)
        var close: [UInt8] = Array("}}".utf8)

        func section(_ name: String, tag: Range<Int>, newLine: Bool) -> State {
            var state = self
            state.section = (name, tag)
            state.isPartialDefinitionTopLevel = false
            if !newLine { state.newLine = false }
            return state
        }

        func inheritancePartial(_ name: String, tag: Range<Int>) -> State {
            var state = self
            state.section = (name, tag)
            state.newLine = true
            state.isPartialDefinition = true
            state.isPartialDefinitionTopLevel = true
            return state
        }

        /// The tag that closes the open section, in the current delimiters.
        var closeTag: String {
            String(decoding: open + Array("/\(section?.name ?? "")".utf8) + close, as: UTF8.self)
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var tagStart = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func parse(_ bytes: [UInt8]) -> Result<[MustacheNode], MustacheParseError> {
        guard bytes.count < Int(Int32.max) else { return .failure(MustacheParseError(kind: .tooLarge, span: 0..<0)) }
        var parser = MustacheParser(bytes)
        do {
            return .success(try parser.parse(State()))
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Reading

    private var atEnd: Bool { index >= bytes.count }
    private var current: UInt8 { index < bytes.count ? bytes[index] : 0 }

    private func newline(at offset: Int) -> Int {
        guard offset < bytes.count else { return 0 }
        if bytes[offset] == UInt8(ascii: "\n") { return 1 }
        if bytes[offset] == UInt8(ascii: "\r"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "\n") { return 2 }
        return 0
    }

    private func matches(_ string: [UInt8], at offset: Int) -> Bool {
        offset + string.count <= bytes.count && bytes[offset..<offset + string.count].elementsEqual(string)
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static let nameBytes = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*".utf8)
    private static let partialNameBytes = nameBytes.union("/".utf8)
    private static let configBytes = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*".utf8)

    private mutating func read(while accept: (UInt8) -> Bool) -> ArraySlice<UInt8> {
        let start = index
        while index < bytes.count, accept(bytes[index]) { index += 1 }
        return bytes[start..<index]
    }

    private mutating func skipWhitespace() { _ = read(while: Self.isWhitespace) }

    private static func span(_ range: Range<Int>) -> Range<Int32> {
        Int32(truncatingIfNeeded: range.lowerBound)..<Int32(truncatingIfNeeded: range.upperBound)
    }

    private func text(_ range: Range<Int>) -> MustacheNode {
        MustacheNode(kind: .text(Array(bytes[range])), span: Self.span(range))
    }

    /// The error `kind` for the tag being read, shown through the next `close` on its line.
    private func fail(_ kind: MustacheParseError.Kind, close: [UInt8]) -> MustacheParseError {
        var end = index
        while end < bytes.count, newline(at: end) == 0, !matches(close, at: end) { end += 1 }
        return fail(kind, to: matches(close, at: end) ? end + close.count : end)
    }

    /// The error `kind` for the tag being read, shown up to `end` but not past its first line.
    private func fail(_ kind: MustacheParseError.Kind, to end: Int) -> MustacheParseError {
        let end = bytes[tagStart..<end].firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") } ?? end
        return MustacheParseError(kind: kind, span: Self.span(tagStart..<end))
    }

    /// Text up to the next opening delimiter (read too, and then true) or newline.
    private mutating func readText(_ state: State) -> Bool {
        while index < bytes.count {
            if newline(at: index) > 0 { return false }
            if matches(state.open, at: index) {
                index += state.open.count
                return true
            }
            index += 1
        }
        return false
    }

    /// Only blanks are left on the line: they and the newline are read. At the end, true.
    private mutating func lineFinished() -> Bool {
        if atEnd { return true }
        var end = index
        while end < bytes.count, Self.isBlank(bytes[end]) { end += 1 }
        let length = newline(at: end)
        guard length > 0 else { return false }
        index = end + length
        return true
    }

    private mutating func standalone(_ state: State) -> Bool {
        state.newLine && lineFinished()
    }

    /// Reads `close`. When missing, the tag is shown up to `close` if it comes before the next tag opens, else as far as it goes.
    private mutating func readClose(_ close: [UInt8], _ state: State) throws(MustacheParseError) {
        guard matches(close, at: index) else {
            let next = (index..<bytes.count).first { matches(close, at: $0) || matches(state.open, at: $0) }
            if let next, matches(close, at: next) { throw fail(.invalidName, close: close) }
            throw fail(.unfinished(expected: String(decoding: close, as: UTF8.self)), to: index)
        }
        index += close.count
    }

    /// A tag's name and its close delimiter (`close`, the state's unless given).
    private mutating func name(_ state: State, close: [UInt8]? = nil, partial: Bool = false) throws(MustacheParseError) -> String {
        let close = close ?? state.close
        let allowed = partial ? Self.partialNameBytes : Self.nameBytes
        skipWhitespace()
        let text = read { allowed.contains($0) }
        if text.contains(UInt8(ascii: "(")) || text.contains(UInt8(ascii: ")")) { throw fail(.transform, close: close) }
        skipWhitespace()
        try readClose(close, state)
        return String(decoding: text, as: UTF8.self)
    }

    private mutating func partialName(_ state: State) throws(MustacheParseError) -> String {
        let name = try name(state, partial: true)
        if name.hasPrefix("*") { throw MustacheParseError(kind: .dynamicName, span: Self.span(tagStart..<index)) }
        return name
    }

    // MARK: - Parsing

    private mutating func parse(_ initial: State) throws(MustacheParseError) -> [MustacheNode] {
        var nodes: [MustacheNode] = []
        var state = initial
        // The line's leading blanks, not yet written: they go before following text, or a tag not alone on its line.
        var whitespace = 0..<0
        func flushWhitespace() {
            if !whitespace.isEmpty { nodes.append(text(whitespace)) }
            whitespace = 0..<0
        }
        while !atEnd {
            if state.newLine {
                let lineStart = index
                let blanks = read(while: Self.isBlank).count
                if state.isPartialDefinition, !state.isPartialDefinitionTopLevel {
                    // Inside a parent's block, the first line's indentation is taken off every line.
                    let indent = state.partialDefinitionIndent ?? blanks
                    state.partialDefinitionIndent = indent
                    whitespace = min(lineStart + indent, index)..<index
                } else {
                    whitespace = lineStart..<index
                }
            }
            let textStart = index
            let opened = readText(state)
            let textEnd = opened ? index - state.open.count : index
            assert(whitespace.isEmpty || whitespace.upperBound == textStart, "a text node is one run of the template's bytes")
            let start = whitespace.isEmpty ? textStart : whitespace.lowerBound
            let length = opened ? 0 : newline(at: index)
            if length > 0 {
                index += length
                nodes.append(text(start..<index))
                whitespace = 0..<0
                state.newLine = true
                continue
            }
            if textEnd > textStart {
                nodes.append(text(start..<textEnd))
                whitespace = 0..<0
                state.newLine = false
            }
            guard opened else { break }
            tagStart = textEnd
            if atEnd { throw fail(.unfinished(expected: String(decoding: state.close, as: UTF8.self)), to: index) }
            var setNewLine = false
            switch current {
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                let inverted = current == UInt8(ascii: "^")
                index += 1
                let name = try name(state)
                let tag = tagStart..<index
                if standalone(state) {
                    setNewLine = true
                } else {
                    flushWhitespace()
                }
                let body = try parse(state.section(name, tag: tag, newLine: setNewLine))
                let kind: MustacheNode.Kind = inverted ? .inverted(MustacheName(name), body) : .section(MustacheName(name), body)
                nodes.append(MustacheNode(kind: kind, span: Self.span(tag)))

            case UInt8(ascii: "/"):
                index += 1
                let name = try name(state)
                let tag = Self.span(tagStart..<index)
                guard let open = state.section else { throw MustacheParseError(kind: .closesNothing, span: tag) }
                guard name == open.name else {
                    throw MustacheParseError(kind: .closesAnother(open: Self.span(open.tag), expected: state.closeTag), span: tag)
                }
                if !standalone(state) { flushWhitespace() }
                return nodes

            case UInt8(ascii: "!"):
                index += 1
                while !atEnd, !matches(state.close, at: index) { index += 1 }
                try readClose(state.close, state)
                setNewLine = standalone(state)
                if !setNewLine { flushWhitespace() }

            case UInt8(ascii: "{"):
                flushWhitespace()
                index += 1
                let name = try name(state, close: state.close + [UInt8(ascii: "}")])
                nodes.append(MustacheNode(kind: .variable(MustacheName(name), escaped: false), span: Self.span(tagStart..<index)))

            case UInt8(ascii: "&"):
                flushWhitespace()
                index += 1
                let name = try name(state)
                nodes.append(MustacheNode(kind: .variable(MustacheName(name), escaped: false), span: Self.span(tagStart..<index)))

            case UInt8(ascii: ">"):
                index += 1
                let name = try partialName(state)
                let tag = Self.span(tagStart..<index)
                if !whitespace.isEmpty { nodes.append(text(whitespace)) }
                let indentation = standalone(state) ? Array(bytes[whitespace]) : nil
                setNewLine = indentation != nil
                nodes.append(MustacheNode(kind: .partial(name, indentation: indentation, overrides: nil), span: tag))
                whitespace = 0..<0

            case UInt8(ascii: "<"):
                index += 1
                let name = try partialName(state)
                let tag = tagStart..<index
                if !whitespace.isEmpty { nodes.append(text(whitespace)) }
                if standalone(state) { setNewLine = true }
                let body = try parse(state.inheritancePartial(name, tag: tag))
                var overrides: [String: [MustacheNode]] = [:]
                for node in body {
                    switch node.kind {
                    case .blockDefinition(let block, let nodes): overrides[block] = nodes
                    case .text: break
                    default: throw MustacheParseError(kind: .notInParent(parent: Self.span(tag)), span: node.span)
                    }
                }
                nodes.append(MustacheNode(kind: .partial(name, indentation: Array(bytes[whitespace]), overrides: overrides), span: Self.span(tag)))
                whitespace = 0..<0

            case UInt8(ascii: "$"):
                index += 1
                let name = try name(state)
                let tag = tagStart..<index
                if state.isPartialDefinitionTopLevel {
                    if standalone(state) { setNewLine = true }
                    let body = try parse(state.section(name, tag: tag, newLine: setNewLine))
                    nodes.append(MustacheNode(kind: .blockDefinition(name, body), span: Self.span(tag)))
                } else {
                    if !whitespace.isEmpty { nodes.append(text(whitespace)) }
                    let indentation = Array(bytes[whitespace])
                    if standalone(state) { setNewLine = true }
                    let body = try parse(state.section(name, tag: tag, newLine: setNewLine))
                    nodes.append(MustacheNode(kind: .block(name, default: body, indentation: indentation), span: Self.span(tag)))
                }
                whitespace = 0..<0

            case UInt8(ascii: "="):
                index += 1
                try setDelimiters(&state)
                setNewLine = standalone(state)
                if !setNewLine { flushWhitespace() }

            case UInt8(ascii: "%"):
                // `{{%CONTENT_TYPE:HTML}}` is accepted and changes nothing: pages are HTML.
                index += 1
                skipWhitespace()
                let variable = read { Self.configBytes.contains($0) }
                skipWhitespace()
                let colon = current == UInt8(ascii: ":")
                if colon { index += 1 }
                skipWhitespace()
                let value = read { Self.configBytes.contains($0) }
                skipWhitespace()
                guard colon, matches(state.close, at: index), variable.elementsEqual("CONTENT_TYPE".utf8), value.elementsEqual("HTML".utf8) else {
                    throw fail(.invalidConfiguration, close: state.close)
                }
                index += state.close.count
                setNewLine = standalone(state)
                if !setNewLine { flushWhitespace() }

            default:
                flushWhitespace()
                let name = try name(state)
                nodes.append(MustacheNode(kind: .variable(MustacheName(name), escaped: true), span: Self.span(tagStart..<index)))
            }
            state.newLine = setNewLine
        }
        if let open = state.section {
            throw MustacheParseError(kind: .neverClosed(expected: state.closeTag), span: Self.span(open.tag))
        }
        return nodes
    }

    private mutating func setDelimiters(_ state: inout State) throws(MustacheParseError) {
        skipWhitespace()
        let open = read { !Self.isWhitespace($0) }
        skipWhitespace()
        let close = read { !Self.isWhitespace($0) && $0 != UInt8(ascii: "=") }
        skipWhitespace()
        guard !open.isEmpty, !close.isEmpty, current == UInt8(ascii: "="), matches(state.close, at: index + 1) else {
            throw fail(.invalidSetDelimiter, close: state.close)
        }
        index += 1 + state.close.count
        state.open = Array(open)
        state.close = Array(close)
        state.isPartialDefinitionTopLevel = false
    }
}
