/// One piece of a compiled template: literal bytes, or a tag with its name already split.
indirect enum MustacheNode: Sendable {
    /// Literal text, at most one line (ending with its newline): a partial's indentation is
    /// added before the first output of each line.
    case text([UInt8])
    case variable(MustacheName, escaped: Bool)
    case section(MustacheName, [MustacheNode])
    case inverted(MustacheName, [MustacheNode])
    /// `{{>name}}`, or `{{<name}}` with the blocks it overrides. `indentation` is set when the
    /// tag stands alone on its line.
    case partial(String, indentation: [UInt8]?, overrides: [String: [MustacheNode]]?)
    /// `{{$name}}default{{/name}}` where a template is rendered.
    case block(String, default: [MustacheNode], indentation: [UInt8])
    /// `{{$name}}…{{/name}}` directly inside a parent tag: the block it overrides.
    case blockDefinition(String, [MustacheNode])
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

/// Why a template cannot be parsed, and the byte offset where the parser was.
struct MustacheParseError: Error {
    enum Kind {
        case sectionCloseNameIncorrect
        case unfinishedName
        case expectedSectionEnd
        case invalidSetDelimiter
        case illegalTokenInsideInheritSection
        case invalidConfigVariableSyntax
        case unrecognisedConfigVariable
        case transform
        case dynamicName
    }

    var kind: Kind
    var offset: Int

    var description: String {
        switch kind {
        case .sectionCloseNameIncorrect: "a section is closed with a different name than it was opened with"
        case .unfinishedName: "a tag is not finished (missing }})"
        case .expectedSectionEnd: "a section is never closed"
        case .invalidSetDelimiter: "a set-delimiter tag is malformed"
        case .illegalTokenInsideInheritSection: "an inheritance section holds a tag it may not"
        case .invalidConfigVariableSyntax: "a configuration tag is malformed"
        case .unrecognisedConfigVariable: "a configuration tag is not recognised"
        case .transform: "transforms (such as reversed(x)) are not supported"
        case .dynamicName: "dynamic partial names ({{>*name}}) are not supported"
        }
    }

    /// Line and column (from 1, in Unicode scalars) of the offset, and that line's text.
    func location(in bytes: [UInt8]) -> (line: Int, column: Int, text: String) {
        let offset = min(max(0, offset), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // Continuation bytes are not scalars of their own.
        let column = bytes[lineStart..<offset].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        return (line, column, String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self))
    }
}

/// Parses a template into nodes, with swift-mustache's rules for whitespace (the engine newsgen
/// used before, so that themes render to the same bytes): a section, inverted section, comment,
/// partial, parent, block or set-delimiter tag alone on its line takes the line with it, and a
/// partial alone on its line is indented as the tag was.
struct MustacheParser {
    private struct State {
        var sectionName: String?
        var newLine = true
        var isPartialDefinition = false
        var isPartialDefinitionTopLevel = false
        var partialDefinitionIndent: Int?
        var open: [UInt8] = Array("{{".utf8)
        var close: [UInt8] = Array("}}".utf8)

        func section(_ name: String, newLine: Bool) -> State {
            var state = self
            state.sectionName = name
            state.isPartialDefinitionTopLevel = false
            if !newLine { state.newLine = false }
            return state
        }

        func inheritancePartial(_ name: String) -> State {
            var state = self
            state.sectionName = name
            state.newLine = true
            state.isPartialDefinition = true
            state.isPartialDefinitionTopLevel = true
            return state
        }
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The template's nodes, or where and why it cannot be parsed (`MustacheParseError.location`).
    static func parse(_ text: String) -> Result<[MustacheNode], MustacheParseError> {
        var parser = MustacheParser(text)
        do {
            return .success(try parser.parse(State()))
        } catch {
            return .failure(error)
        }
    }

    static func bytes(of text: String) -> [UInt8] { Array(text.utf8) }

    // MARK: - Reading

    private var atEnd: Bool { index >= bytes.count }
    private var current: UInt8 { index < bytes.count ? bytes[index] : 0 }

    /// The length of the newline at `offset` (`\n` or `\r\n`), or 0.
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

    private func fail(_ kind: MustacheParseError.Kind) -> MustacheParseError {
        MustacheParseError(kind: kind, offset: index)
    }

    /// Text up to the next opening delimiter (which is read too) or newline (which is not).
    private mutating func readText(_ state: State) -> [UInt8] {
        let start = index
        while index < bytes.count {
            if newline(at: index) > 0 { return Array(bytes[start..<index]) }
            if matches(state.open, at: index) {
                let text = Array(bytes[start..<index])
                index += state.open.count
                return text
            }
            index += 1
        }
        return Array(bytes[start..<index])
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

    private mutating func readClose(_ state: State) throws(MustacheParseError) {
        guard matches(state.close, at: index) else { throw fail(.unfinishedName) }
        index += state.close.count
    }

    private mutating func name(_ state: State) throws(MustacheParseError) -> String {
        skipWhitespace()
        let start = index
        let text = read { Self.nameBytes.contains($0) }
        skipWhitespace()
        try readClose(state)
        if text.contains(UInt8(ascii: "(")) || text.contains(UInt8(ascii: ")")) {
            throw MustacheParseError(kind: .transform, offset: start)
        }
        return String(decoding: text, as: UTF8.self)
    }

    private mutating func partialName(_ state: State) throws(MustacheParseError) -> String {
        skipWhitespace()
        let start = index
        let text = read { Self.partialNameBytes.contains($0) }
        skipWhitespace()
        try readClose(state)
        if text.first == UInt8(ascii: "*") { throw MustacheParseError(kind: .dynamicName, offset: start) }
        return String(decoding: text, as: UTF8.self)
    }

    // MARK: - Parsing

    private mutating func parse(_ initial: State) throws(MustacheParseError) -> [MustacheNode] {
        var nodes: [MustacheNode] = []
        var state = initial
        var whitespaceBefore: [UInt8] = []
        func flushWhitespace() {
            if !whitespaceBefore.isEmpty {
                nodes.append(.text(whitespaceBefore))
                whitespaceBefore = []
            }
        }
        while !atEnd {
            if state.newLine {
                let whitespace = read(while: Self.isBlank)
                if state.isPartialDefinition, !state.isPartialDefinitionTopLevel {
                    // Inside a parent's block, the first line's indentation is taken off every line.
                    if let indent = state.partialDefinitionIndent {
                        whitespaceBefore = Array(whitespace.dropFirst(indent))
                    } else {
                        state.partialDefinitionIndent = whitespace.count
                    }
                } else {
                    whitespaceBefore = Array(whitespace)
                }
            }
            let text = readText(state)
            let length = newline(at: index)
            if length > 0 {
                nodes.append(.text(whitespaceBefore + text + bytes[index..<index + length]))
                state.newLine = true
                index += length
                continue
            }
            if !text.isEmpty {
                nodes.append(.text(whitespaceBefore + text))
                whitespaceBefore = []
                state.newLine = false
            }
            if atEnd { break }
            var setNewLine = false
            switch current {
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                let inverted = current == UInt8(ascii: "^")
                index += 1
                let name = try name(state)
                if standalone(state) {
                    setNewLine = true
                } else {
                    flushWhitespace()
                }
                let body = try parse(state.section(name, newLine: setNewLine))
                nodes.append(inverted ? .inverted(MustacheName(name), body) : .section(MustacheName(name), body))

            case UInt8(ascii: "/"):
                index += 1
                let start = index
                let name = try name(state)
                guard name == state.sectionName else {
                    throw MustacheParseError(kind: .sectionCloseNameIncorrect, offset: start)
                }
                if !standalone(state) { flushWhitespace() }
                return nodes

            case UInt8(ascii: "!"):
                index += 1
                while !atEnd, !matches(state.close, at: index) { index += 1 }
                try readClose(state)
                setNewLine = standalone(state)

            case UInt8(ascii: "{"):
                flushWhitespace()
                index += 1
                let name = try name(state)
                guard current == UInt8(ascii: "}") else { throw fail(.unfinishedName) }
                index += 1
                nodes.append(.variable(MustacheName(name), escaped: false))

            case UInt8(ascii: "&"):
                flushWhitespace()
                index += 1
                nodes.append(.variable(MustacheName(try name(state)), escaped: false))

            case UInt8(ascii: ">"):
                index += 1
                skipWhitespace()
                let name = try partialName(state)
                if !whitespaceBefore.isEmpty { nodes.append(.text(whitespaceBefore)) }
                if standalone(state) {
                    setNewLine = true
                    nodes.append(.partial(name, indentation: whitespaceBefore, overrides: nil))
                } else {
                    nodes.append(.partial(name, indentation: nil, overrides: nil))
                }
                whitespaceBefore = []

            case UInt8(ascii: "<"):
                index += 1
                skipWhitespace()
                let name = try partialName(state)
                if !whitespaceBefore.isEmpty { nodes.append(.text(whitespaceBefore)) }
                if standalone(state) { setNewLine = true }
                let body = try parse(state.inheritancePartial(name))
                var overrides: [String: [MustacheNode]] = [:]
                for node in body {
                    switch node {
                    case .blockDefinition(let block, let nodes): overrides[block] = nodes
                    case .text: break
                    default: throw fail(.illegalTokenInsideInheritSection)
                    }
                }
                nodes.append(.partial(name, indentation: whitespaceBefore, overrides: overrides))
                whitespaceBefore = []

            case UInt8(ascii: "$"):
                index += 1
                let name = try name(state)
                if state.isPartialDefinitionTopLevel {
                    if standalone(state) { setNewLine = true }
                    nodes.append(.blockDefinition(name, try parse(state.section(name, newLine: setNewLine))))
                } else {
                    if !whitespaceBefore.isEmpty { nodes.append(.text(whitespaceBefore)) }
                    if standalone(state) { setNewLine = true }
                    let body = try parse(state.section(name, newLine: setNewLine))
                    nodes.append(.block(name, default: body, indentation: whitespaceBefore))
                    whitespaceBefore = []
                }

            case UInt8(ascii: "="):
                index += 1
                try setDelimiters(&state)
                setNewLine = standalone(state)

            case UInt8(ascii: "%"):
                // swift-mustache's CONTENT_TYPE; newsgen's pages are HTML.
                index += 1
                skipWhitespace()
                let variable = read { Self.configBytes.contains($0) }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw fail(.invalidConfigVariableSyntax) }
                index += 1
                skipWhitespace()
                let value = read { Self.configBytes.contains($0) }
                skipWhitespace()
                guard matches(state.close, at: index), !variable.isEmpty, !value.isEmpty else { throw fail(.invalidConfigVariableSyntax) }
                index += state.close.count
                guard variable.elementsEqual("CONTENT_TYPE".utf8), value.elementsEqual("HTML".utf8) else {
                    throw fail(.unrecognisedConfigVariable)
                }
                setNewLine = standalone(state)

            default:
                flushWhitespace()
                nodes.append(.variable(MustacheName(try name(state)), escaped: true))
            }
            state.newLine = setNewLine
        }
        guard state.sectionName == nil else { throw fail(.expectedSectionEnd) }
        return nodes
    }

    private mutating func setDelimiters(_ state: inout State) throws(MustacheParseError) {
        skipWhitespace()
        let open = read { !Self.isWhitespace($0) }
        guard !atEnd else { throw fail(.invalidSetDelimiter) }
        skipWhitespace()
        let close = read { !Self.isWhitespace($0) && $0 != UInt8(ascii: "=") }
        guard !atEnd else { throw fail(.invalidSetDelimiter) }
        skipWhitespace()
        guard current == UInt8(ascii: "=") else { throw fail(.invalidSetDelimiter) }
        index += 1
        guard matches(state.close, at: index) else { throw fail(.invalidSetDelimiter) }
        index += state.close.count
        guard !open.isEmpty, !close.isEmpty else { throw fail(.invalidSetDelimiter) }
        state.open = Array(open)
        state.close = Array(close)
        state.isPartialDefinitionTopLevel = false
    }
}
