import Foundation
import NewsgenModel

/// One template of a theme: its text and parsed nodes, which the checks walk so they read a template exactly as it renders.
struct TemplateSource: Sendable {
    /// The name partials use (`row`, `cards/wide`).
    var name: String
    /// The file as messages name it (`Templates/row.mustache`, `built-in theme: row.mustache`).
    var location: String
    var bytes: [UInt8]
    var nodes: [MustacheNode] = []

    /// Parses a template; a tag the engine cannot read is an error naming its line and column.
    init(name: String, location: String, text: String) throws(TemplateError) {
        self.name = name
        self.location = location
        bytes = Array(text.utf8)
        switch MustacheParser.parse(bytes) {
        case .success(let nodes): self.nodes = nodes
        case .failure(let failure): throw problem(failure)
        }
    }

    func text(_ span: Range<Int32>) -> String {
        String(decoding: bytes[Int(span.lowerBound)..<Int(span.upperBound)], as: UTF8.self)
    }

    /// The line and column (from 1; columns in Unicode scalars) of a byte offset.
    func position(of offset: Int32) -> (line: Int, column: Int) {
        let offset = min(Int(offset), bytes.count)
        let newline = UInt8(ascii: "\n")
        let lineStart = bytes[..<offset].lastIndex(of: newline).map { $0 + 1 } ?? 0
        let line = 1 + bytes[..<lineStart].count { $0 == newline }
        return (line, 1 + bytes[lineStart..<offset].count { $0 & 0xC0 != 0x80 })
    }

    func error(at offset: Int32, _ message: String) -> TemplateError {
        TemplateError(location, at: position(of: offset), message)
    }

    private func problem(_ failure: MustacheParseError) -> TemplateError {
        let tag = text(failure.span)
        let message = switch failure.kind {
        case .unfinished(let close): "\(tag) is never finished with \(close)"
        case .invalidName: "\(tag) is not a tag: a name is letters, digits, '.', '-' and '_'"
        case .transform: "\(tag) is a transform; templates support no transforms or lambdas"
        case .dynamicName: "\(tag) is a dynamic partial name, which templates do not support; name the partial"
        case .invalidSetDelimiter: "\(tag) is not a set-delimiter tag: it names two delimiters, as {{=<% %>=}} does"
        case .invalidConfiguration: "\(tag) is not a configuration newsgen knows; it knows {{%CONTENT_TYPE:HTML}}"
        case .notInParent(let parent): "\(tag) is inside \(text(parent)), which holds only blocks ({{$name}}…{{/name}})"
        case .neverClosed(let close): "\(tag) is never closed; expected \(close) before the end of the file"
        case .closesNothing: "\(tag) closes no section"
        case .closesAnother(let open, let close):
            "\(tag) closes \(text(open)) opened at line \(position(of: open.lowerBound).line); expected \(close)"
        case .tooLarge: "the template is too large (2 GB or more)"
        }
        return error(at: failure.span.lowerBound, message)
    }
}

extension [MustacheNode] {
    /// Calls `body` with each node, then the nodes it holds (sections', blocks', a parent's overrides), in template order.
    func walk<Failure: Error>(_ body: (MustacheNode) throws(Failure) -> Void) throws(Failure) {
        for node in self {
            try body(node)
            switch node.kind {
            case .section(_, let children), .inverted(_, let children), .block(_, let children, _), .blockDefinition(_, let children):
                try children.walk(body)
            case .partial(_, _, let overrides?):
                for block in overrides.values.sorted(by: { ($0.first?.span.lowerBound ?? 0) < ($1.first?.span.lowerBound ?? 0) }) {
                    try block.walk(body)
                }
            case .text, .variable, .partial:
                continue
            }
        }
    }
}

// MARK: - Markup

/// Checks that a template's own markup is well-formed, reading its literal text with tags taken out and every section
/// present, so a `</h2>` closing an `<h3>` is one error naming the line, not a validation failure on every page.
enum TemplateMarkup {
    /// Where a `{{variable}}` stood in the template's text (a private-use character).
    static let placeholder: Unicode.Scalar = "\u{E000}"

    /// HTML's void elements: pages are XML, so they must close themselves (`<br/>`).
    static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]

    static func check(_ source: TemplateSource) throws(TemplateError) {
        var text: [Unicode.Scalar] = []
        var offsets: [Int32] = []
        // A variable is one placeholder scalar, so a name built with one (`<h{{level}}>`) stays one name, shown as written.
        var variables: [Int: String] = [:]
        source.nodes.walk { node in
            switch node.kind {
            case .text(let bytes):
                var offset = node.span.lowerBound
                for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                    text.append(scalar)
                    offsets.append(offset)
                    offset += Int32(scalar.utf8.count)
                }
            case .variable:
                variables[text.count] = source.text(node.span)
                text.append(Self.placeholder)
                offsets.append(node.span.lowerBound)
            default:
                break
            }
        }
        var open: [(name: String, offset: Int32)] = []
        var index = 0

        func has(_ prefix: String, at offset: Int) -> Bool {
            let scalars = Array(prefix.unicodeScalars)
            return offset + scalars.count <= text.count && text[offset..<offset + scalars.count].elementsEqual(scalars)
        }
        func skip(past end: String) {
            while index < text.count, !has(end, at: index) { index += 1 }
            index = min(text.count, index + end.unicodeScalars.count)
        }
        func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_:.".unicodeScalars.contains(scalar)
                || scalar == Self.placeholder
        }
        func name(from offset: Int) -> (text: String, length: Int) {
            var end = offset
            var name = ""
            while end < text.count, isNameScalar(text[end]) {
                if let variable = variables[end] { name += variable } else { name.unicodeScalars.append(text[end]) }
                end += 1
            }
            return (name, end - offset)
        }

        while index < text.count {
            guard text[index] == "<" else { index += 1; continue }
            let start = index
            let offset = offsets[start]
            if has("<!--", at: index) { skip(past: "-->"); continue }
            if has("<![CDATA[", at: index) { skip(past: "]]>"); continue }
            if has("<!", at: index) || has("<?", at: index) { skip(past: ">"); continue }
            if has("</", at: index) {
                let closing = name(from: index + 2).text
                skip(past: ">")
                guard !closing.isEmpty else { continue }
                guard let last = open.last else {
                    throw source.error(at: offset, "</\(closing)> closes no element")
                }
                guard last.name == closing else {
                    throw source.error(at: offset, "</\(closing)> closes <\(last.name)> opened at line \(source.position(of: last.offset).line); expected </\(last.name)>")
                }
                open.removeLast()
                continue
            }
            let (element, length) = name(from: index + 1)
            guard !element.isEmpty, text[index + 1].properties.isAlphabetic else { index += 1; continue }
            index += 1 + length
            var quote: Unicode.Scalar?
            while index < text.count {
                let scalar = text[index]
                if let current = quote {
                    if scalar == current { quote = nil }
                } else if scalar == "\"" || scalar == "'" {
                    quote = scalar
                } else if scalar == ">" {
                    break
                }
                index += 1
            }
            guard index < text.count else {
                throw source.error(at: offset, "<\(element) is never finished with '>'")
            }
            let selfClosing = text[index - 1] == "/"
            index += 1
            if voidElements.contains(element.lowercased()) {
                guard selfClosing else {
                    throw source.error(at: offset, "<\(element)> must close itself as <\(element)/>: pages are well-formed XML")
                }
            } else if !selfClosing {
                open.append((element, offset))
                if ["script", "style"].contains(element.lowercased()) {
                    while index < text.count, !has("</\(element)", at: index) { index += 1 }
                }
            }
        }
        if let last = open.last {
            throw source.error(at: last.offset, "<\(last.name)> is never closed")
        }
    }
}

// MARK: - Names

/// The names a page model gives templates, read from its stored properties (what `TemplateValues` hands to Mustache).
indirect enum TemplateShape: Sendable {
    case object([String: TemplateShape])
    case list(TemplateShape)
    case scalar
    /// A value whose names cannot be known (the current item, `{{.}}`): any name is accepted.
    case open

    /// The shape of a model type: this module's structs by stored properties, arrays by element, optionals by what they
    /// wrap, everything else a scalar.
    static func of(_ type: Any.Type) -> TemplateShape {
        of(type, depth: 0)
    }

    private static let module = String(reflecting: SiteModel.self).prefix { $0 != "." } + "."

    private static func of(_ type: Any.Type, depth: Int) -> TemplateShape {
        guard depth < 16 else { return .scalar }
        if let optional = type as? any TemplateOptional.Type { return of(optional.wrappedType, depth: depth + 1) }
        if let array = type as? any TemplateArray.Type { return .list(of(array.elementType, depth: depth + 1)) }
        guard String(reflecting: type).hasPrefix(module) else { return .scalar }
        var fields: [String: TemplateShape] = [:]
        let isStruct = TemplateReflection.forEachField(of: type) { name, fieldType in
            fields[name] = of(fieldType, depth: depth + 1)
        }
        return isStruct ? .object(fields) : .scalar
    }

    /// Every name anywhere in the shape, for telling "no page has this" from "not here".
    var allNames: Set<String> {
        switch self {
        case .object(let fields): fields.reduce(into: Set(fields.keys)) { $0.formUnion($1.value.allNames) }
        case .list(let element): element.allNames
        case .scalar, .open: []
        }
    }
}

private protocol TemplateOptional { static var wrappedType: Any.Type { get } }
extension Optional: TemplateOptional { fileprivate static var wrappedType: Any.Type { Wrapped.self } }
private protocol TemplateArray { static var elementType: Any.Type { get } }
extension Array: TemplateArray { fileprivate static var elementType: Any.Type { Element.self } }
extension ArticleRows: TemplateArray { fileprivate static var elementType: Any.Type { ArticleRow.self } }

/// Checks that every name a template uses is provided where it is used (Mustache renders an unknown name as nothing).
/// Sections see their own value's names and those around them; partials and parents are followed with the names visible
/// where they are included.
struct TemplateNames {
    let sources: [String: TemplateSource]
    /// Each page template with the type of the value it renders.
    let models: [String: Any.Type]

    /// Checks every page template, in name order, with the partials and parents it includes.
    func check() throws(TemplateError) {
        let shapes = models.mapValues { TemplateShape.of($0) }
        let allNames = shapes.values.reduce(into: Set<String>()) { $0.formUnion($1.allNames) }
        for (template, shape) in shapes.sorted(by: { $0.key < $1.key }) {
            guard let source = sources[template] else { continue }
            var walk = Walk(sources: sources, allNames: allNames)
            try walk.visit(source.nodes, in: source, stack: [shape], overrides: [:])
        }
    }

    private struct Walk {
        let sources: [String: TemplateSource]
        let allNames: Set<String>
        var visiting: [String] = []

        mutating func visit(_ nodes: [MustacheNode], in source: TemplateSource, stack: [TemplateShape],
                            overrides: [String: (nodes: [MustacheNode], source: TemplateSource)]) throws(TemplateError) {
            for node in nodes {
                switch node.kind {
                case .variable(let name, _):
                    _ = try resolve(name, of: node, in: source, stack: stack)
                case .section(let name, let body):
                    var inner = stack
                    switch try resolve(name, of: node, in: source, stack: stack) {
                    case .list(let element): inner.append(element)
                    case let value: inner.append(value)
                    }
                    try visit(body, in: source, stack: inner, overrides: overrides)
                case .inverted(let name, let body):
                    _ = try resolve(name, of: node, in: source, stack: stack)
                    try visit(body, in: source, stack: stack, overrides: overrides)
                case .block(let name, let fallback, _):
                    if let override = overrides[name] {
                        try visit(override.nodes, in: override.source, stack: stack, overrides: overrides)
                    } else {
                        try visit(fallback, in: source, stack: stack, overrides: overrides)
                    }
                case .partial(let name, _, let blocks):
                    guard let partial = sources[name], !visiting.contains(name) else { continue }
                    // The outermost template's blocks win, as they do when rendering.
                    var inherited = overrides
                    for (block, body) in blocks ?? [:] where inherited[block] == nil {
                        inherited[block] = (body, source)
                    }
                    visiting.append(name)
                    try visit(partial.nodes, in: partial, stack: stack, overrides: inherited)
                    visiting.removeLast()
                case .text, .blockDefinition:
                    continue
                }
            }
        }

        /// The shape a name reads; `.open` for the current item (`.`).
        private func resolve(_ name: MustacheName, of node: MustacheNode, in source: TemplateSource,
                             stack: [TemplateShape]) throws(TemplateError) -> TemplateShape {
            guard !name.isImplicit, let first = name.parts.first else { return .open }
            var found: TemplateShape?
            for frame in name.isAnchored ? Array(stack.suffix(1)) : Array(stack.reversed()) {
                if case .object(let fields) = frame, let value = fields[first] {
                    found = value
                    break
                }
                if case .open = frame {
                    found = .open
                    break
                }
            }
            guard var value = found else {
                throw unknown(first, at: node, in: source, visible: stack.flatMap(Self.names))
            }
            for part in name.parts.dropFirst() {
                guard case .object(let fields) = value else { return .open }
                guard let child = fields[part] else {
                    throw unknown(part, at: node, in: source, visible: Array(fields.keys))
                }
                value = child
            }
            return value
        }

        private static func names(_ shape: TemplateShape) -> [String] {
            if case .object(let fields) = shape { return Array(fields.keys) }
            return []
        }

        private func unknown(_ name: String, at node: MustacheNode, in source: TemplateSource, visible: [String]) -> TemplateError {
            let what = allNames.contains(name)
                ? "is not a value the page provides here"
                : "is not a value any page provides"
            let suggestion = Suggestion.closest(to: name, in: Array(Set(visible)).sorted()).map { " (did you mean \($0)?)" } ?? ""
            return source.error(at: node.span.lowerBound, "\(source.text(node.span)) \(what)\(suggestion)")
        }
    }
}
