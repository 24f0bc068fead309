import Foundation
import NewsgenModel

/// A position in a template, 1-based, columns in Unicode scalars.
struct TemplatePosition: Sendable, Hashable {
    var line: Int
    var column: Int
}

/// One Mustache tag, or a run of literal text between tags, with where it starts.
struct TemplateTag: Sendable {
    enum Kind: Sendable, Equatable {
        case text
        case variable
        case section
        case inverted
        case close
        case partial
        case parent
        case block
        /// Comments, set-delimiter and pragma tags.
        case other
    }

    var kind: Kind
    /// A tag's name as written (`content.source`, `reversed(articles)`); for text, the text.
    var name: String
    /// The value a transformed name reads (`articles` in `reversed(articles)`).
    var variable: String
    /// The tag as written, for messages (`{{#items}}`).
    var literal: String
    var position: TemplatePosition
}

/// A section, inverted section, block or parent with what it holds; any other tag alone.
struct TemplateNode: Sendable {
    var tag: TemplateTag
    var children: [TemplateNode] = []
}

/// One template file of a theme, read into tags.
struct TemplateSource: Sendable {
    /// The name partials use (`row`, `cards/wide`).
    var name: String
    /// The file as messages name it (`Templates/row.mustache`, `built-in theme: row.mustache`).
    var location: String
    var tags: [TemplateTag]
    var nodes: [TemplateNode]

    /// Reads a template. Returns `nil` when a tag is not finished: the engine's parser (`MustacheParser`) then
    /// says where. Sections that are not closed, or closed by another name, are errors naming both.
    init?(name: String, location: String, text: String) throws(TemplateError) {
        guard let tags = Self.scan(text) else { return nil }
        self.name = name
        self.location = location
        self.tags = tags
        self.nodes = try Self.tree(tags, location: location)
    }

    func error(at position: TemplatePosition, _ message: String) -> TemplateError {
        TemplateError(location, at: (position.line, position.column), message)
    }

    // MARK: - Tags

    private static func scan(_ text: String) -> [TemplateTag]? {
        let scalars = Array(text.unicodeScalars)
        var open = Array("{{".unicodeScalars)
        var close = Array("}}".unicodeScalars)
        var tags: [TemplateTag] = []
        var index = 0
        var position = TemplatePosition(line: 1, column: 1)
        var textStart = 0
        var textPosition = position

        func matches(_ delimiter: [Unicode.Scalar], at offset: Int) -> Bool {
            offset + delimiter.count <= scalars.count && scalars[offset..<offset + delimiter.count].elementsEqual(delimiter)
        }
        func advance(to end: Int) {
            while index < end {
                if scalars[index] == "\n" {
                    position.line += 1
                    position.column = 1
                } else {
                    position.column += 1
                }
                index += 1
            }
        }
        func string(_ range: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            return String(view)
        }
        func flushText(upTo end: Int) {
            guard end > textStart else { return }
            let text = string(textStart..<end)
            tags.append(TemplateTag(kind: .text, name: text, variable: "", literal: text, position: textPosition))
        }

        while index < scalars.count {
            guard matches(open, at: index) else {
                advance(to: index + 1)
                continue
            }
            flushText(upTo: index)
            let start = index
            let tagPosition = position
            let contentStart = start + open.count
            let triple = open == Array("{{".unicodeScalars) && contentStart < scalars.count && scalars[contentStart] == "{"
            let closing = triple ? Array("}".unicodeScalars) + close : close
            var end = contentStart
            while end < scalars.count, !matches(closing, at: end) { end += 1 }
            guard end < scalars.count else { return nil }
            let content = string(contentStart..<end)
            advance(to: end + closing.count)
            let literal = string(start..<index)
            textStart = index
            textPosition = position

            var body = content.trimmingCharacters(in: .whitespaces)
            let kind: TemplateTag.Kind
            switch body.first ?? " " {
            case "{" where triple: kind = .variable; body.removeFirst()
            case "&": kind = .variable; body.removeFirst()
            case "#": kind = .section; body.removeFirst()
            case "^": kind = .inverted; body.removeFirst()
            case "/": kind = .close; body.removeFirst()
            case ">": kind = .partial; body.removeFirst()
            case "<": kind = .parent; body.removeFirst()
            case "$": kind = .block; body.removeFirst()
            case "!", "%": kind = .other
            case "=":
                kind = .other
                let parts = body.trimmingCharacters(in: CharacterSet(charactersIn: "= ")).split(whereSeparator: \.isWhitespace)
                guard parts.count == 2 else { return nil }
                open = Array(parts[0].unicodeScalars)
                close = Array(parts[1].unicodeScalars)
            default: kind = .variable
            }
            let name = body.trimmingCharacters(in: .whitespaces)
            // `reversed(articles)` reads `articles`; `index()` reads the sequence's own context.
            var variable = name
            if let open = name.lastIndex(of: "(") {
                variable = String(name[name.index(after: open)...].prefix { $0 != ")" })
            }
            tags.append(TemplateTag(kind: kind, name: name, variable: variable, literal: literal, position: tagPosition))
        }
        flushText(upTo: scalars.count)
        return tags
    }

    /// Nests the tags by section, naming the section a close tag does not match, or one never closed.
    private static func tree(_ tags: [TemplateTag], location: String) throws(TemplateError) -> [TemplateNode] {
        var stack: [TemplateNode] = [TemplateNode(tag: TemplateTag(kind: .other, name: "", variable: "", literal: "", position: TemplatePosition(line: 1, column: 1)))]
        func at(_ position: TemplatePosition, _ message: String) -> TemplateError {
            TemplateError(location, at: (position.line, position.column), message)
        }
        for tag in tags {
            switch tag.kind {
            case .section, .inverted, .parent, .block:
                stack.append(TemplateNode(tag: tag))
            case .close:
                guard stack.count > 1, let open = stack.last else {
                    throw at(tag.position, "\(tag.literal) closes no section")
                }
                guard open.tag.name == tag.name || open.tag.variable == tag.name else {
                    throw at(tag.position, "\(tag.literal) closes \(open.tag.literal) opened at line \(open.tag.position.line); expected {{/\(open.tag.name)}}")
                }
                stack.removeLast()
                stack[stack.count - 1].children.append(open)
            default:
                stack[stack.count - 1].children.append(TemplateNode(tag: tag))
            }
        }
        if stack.count > 1, let open = stack.last {
            throw at(open.tag.position, "\(open.tag.literal) is never closed; expected {{/\(open.tag.name)}} before the end of the file")
        }
        return stack[0].children
    }
}

// MARK: - Markup

/// Checks that a template's own markup is well-formed, reading the literal text with the Mustache
/// tags taken out and every section's content present: a `</h2>` that closes an `<h3>` is then
/// one error naming the template's line, not a validation failure on every page.
enum TemplateMarkup {
    /// Where a `{{variable}}` stood in the template's text (a private-use character).
    static let placeholder: Unicode.Scalar = "\u{E000}"

    /// HTML's void elements: pages are XML, so they must close themselves (`<br/>`).
    static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]

    static func check(_ source: TemplateSource) throws(TemplateError) {
        var text: [Unicode.Scalar] = []
        var positions: [TemplatePosition] = []
        // A variable stands in the text as one placeholder, so that a name built with one
        // (`<h{{level}}>`) stays one name, shown as written.
        var variables: [Int: String] = [:]
        for tag in source.tags where tag.kind == .text || tag.kind == .variable {
            guard tag.kind == .text else {
                variables[text.count] = "{{\(tag.name)}}"
                text.append(Self.placeholder)
                positions.append(tag.position)
                continue
            }
            var position = tag.position
            for scalar in tag.name.unicodeScalars {
                text.append(scalar)
                positions.append(position)
                if scalar == "\n" {
                    position.line += 1
                    position.column = 1
                } else {
                    position.column += 1
                }
            }
        }
        var open: [(name: String, position: TemplatePosition)] = []
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
        /// The element name at `offset`, and how many scalars of the text it takes.
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
            let position = positions[start]
            if has("<!--", at: index) { skip(past: "-->"); continue }
            if has("<![CDATA[", at: index) { skip(past: "]]>"); continue }
            if has("<!", at: index) || has("<?", at: index) { skip(past: ">"); continue }
            if has("</", at: index) {
                let closing = name(from: index + 2).text
                skip(past: ">")
                guard !closing.isEmpty else { continue }
                guard let last = open.last else {
                    throw source.error(at: position, "</\(closing)> closes no element")
                }
                guard last.name == closing else {
                    throw source.error(at: position, "</\(closing)> closes <\(last.name)> opened at line \(last.position.line); expected </\(last.name)>")
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
                throw source.error(at: position, "<\(element) is never finished with '>'")
            }
            let selfClosing = text[index - 1] == "/"
            index += 1
            if voidElements.contains(element.lowercased()) {
                guard selfClosing else {
                    throw source.error(at: position, "<\(element)> must close itself as <\(element)/>: pages are well-formed XML")
                }
            } else if !selfClosing {
                open.append((element, position))
                if ["script", "style"].contains(element.lowercased()) {
                    while index < text.count, !has("</\(element)", at: index) { index += 1 }
                }
            }
        }
        if let last = open.last {
            throw source.error(at: last.position, "<\(last.name)> is never closed")
        }
    }
}

// MARK: - Names

/// The names a page model gives templates, read from the model types themselves (their stored
/// properties, which is what `TemplateValues` hands to Mustache), so the check follows the models.
indirect enum TemplateShape: Sendable {
    case object([String: TemplateShape])
    case list(TemplateShape)
    case scalar
    /// A value whose names cannot be known (a transform's result): any name is accepted.
    case open

    /// The shape of a model type: structs of this module by their stored properties, arrays by
    /// their elements, optionals by what they wrap, everything else (String, Int, Date…) a scalar.
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

/// Checks that every name a template uses is one its page model provides where it is used:
/// Mustache renders an unknown name as nothing, so `{{headline}}` would be empty on every page.
/// Sections see their own value's names and those of every section around them; partials and
/// parents are followed with the names visible where they are included.
struct TemplateNames {
    /// Every template of the theme by name.
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

        mutating func visit(_ nodes: [TemplateNode], in source: TemplateSource, stack: [TemplateShape],
                            overrides: [String: (nodes: [TemplateNode], source: TemplateSource)]) throws(TemplateError) {
            for node in nodes {
                let tag = node.tag
                switch tag.kind {
                case .variable:
                    _ = try resolve(tag, in: source, stack: stack)
                case .section:
                    let value = try resolve(tag, in: source, stack: stack)
                    var inner = stack
                    switch value {
                    case .list(let element): inner.append(element)
                    case let value: inner.append(tag.name == tag.variable ? value : .open)
                    }
                    try visit(node.children, in: source, stack: inner, overrides: overrides)
                case .inverted:
                    _ = try resolve(tag, in: source, stack: stack)
                    try visit(node.children, in: source, stack: stack, overrides: overrides)
                case .block:
                    if let override = overrides[tag.name] {
                        try visit(override.nodes, in: override.source, stack: stack, overrides: overrides)
                    } else {
                        try visit(node.children, in: source, stack: stack, overrides: overrides)
                    }
                case .partial, .parent:
                    guard !tag.name.hasPrefix("*"), let partial = sources[tag.name], !visiting.contains(tag.name) else { continue }
                    var inherited = overrides
                    for child in node.children where child.tag.kind == .block && inherited[child.tag.name] == nil {
                        inherited[child.tag.name] = (child.children, source)
                    }
                    visiting.append(tag.name)
                    try visit(partial.nodes, in: partial, stack: stack, overrides: inherited)
                    visiting.removeLast()
                case .text, .close, .other:
                    continue
                }
            }
        }

        /// The shape a name reads; `.open` for the current item (`.`) or the sequence's own
        /// context (`index()`).
        private func resolve(_ tag: TemplateTag, in source: TemplateSource, stack: [TemplateShape]) throws(TemplateError) -> TemplateShape {
            let name = tag.variable
            guard !name.isEmpty, name != "." else { return .open }
            var parts = name.split(separator: ".").map(String.init)
            guard let first = parts.first else { return .open }
            parts.removeFirst()
            var found: TemplateShape?
            let frames = name.hasPrefix(".") ? Array(stack.suffix(1)) : Array(stack.reversed())
            for frame in frames {
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
                throw unknown(first, tag: tag, in: source, visible: stack.flatMap(Self.names))
            }
            for part in parts {
                guard case .object(let fields) = value else { return .open }
                guard let child = fields[part] else {
                    throw unknown(part, tag: tag, in: source, visible: Array(fields.keys))
                }
                value = child
            }
            return value
        }

        private static func names(_ shape: TemplateShape) -> [String] {
            if case .object(let fields) = shape { return Array(fields.keys) }
            return []
        }

        private func unknown(_ name: String, tag: TemplateTag, in source: TemplateSource, visible: [String]) -> TemplateError {
            let what = allNames.contains(name)
                ? "is not a value the page provides here"
                : "is not a value any page provides"
            let suggestion = Suggestion.closest(to: name, in: Array(Set(visible)).sorted()).map { " (did you mean \($0)?)" } ?? ""
            return source.error(at: tag.position, "\(tag.literal) \(what)\(suggestion)")
        }
    }
}
