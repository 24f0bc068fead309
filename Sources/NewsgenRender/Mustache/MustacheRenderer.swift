import Foundation

/// A theme's templates, each parsed once, rendered into bytes: names are split at parse time, values are typed
/// (`TemplateValue`) and text is escaped byte by byte.
struct MustacheLibrary: Sendable {
    private(set) var templates: [String: [MustacheNode]] = [:]

    /// The templates' nodes by name (`row`, `cards/wide`): what partials and parents call them.
    init(templates: [String: [MustacheNode]] = [:]) {
        self.templates = templates
    }

    mutating func register(_ text: String, named name: String) throws(MustacheParseError) {
        templates[name] = try MustacheParser.parse(Array(text.utf8)).get()
    }

    func has(_ name: String) -> Bool { templates[name] != nil }

    /// The template `name` rendered with `value`; `nil` when there is no such template.
    func render(_ value: TemplateValue, template name: String) -> Data? {
        guard let nodes = templates[name] else { return nil }
        var renderer = MustacheRenderer(templates: templates)
        var stack = [value]
        renderer.render(nodes, stack: &stack, indentation: [], inherited: nil)
        return renderer.output.data()
    }
}

private struct MustacheRenderer: ~Copyable {
    let templates: [String: [MustacheNode]]
    var output = OutputBuffer(capacity: 16 * 1024)

    init(templates: [String: [MustacheNode]]) {
        self.templates = templates
    }

    /// Renders `nodes`; `stack` is the context (the page, then each section's value), restored on return. A partial's
    /// indentation goes before a node's output when this call's output so far ends a line; its first line is indented by
    /// the caller. So later list items in an indented partial start unindented: the default theme's bytes depend on it
    /// (Fixtures/EngineParity).
    mutating func render(_ nodes: [MustacheNode], stack: inout [TemplateValue], indentation: [UInt8], inherited: [String: [MustacheNode]]?) {
        let start = output.count
        for index in nodes.indices {
            let nodeStart = output.count
            let indents = !indentation.isEmpty && endsLine(since: start)
            defer {
                if indents, output.count > nodeStart { output.insert(indentation, at: nodeStart) }
            }
            switch nodes[index].kind {
            case .text(let bytes):
                output.append(bytes)
            case .variable(let name, let escaped):
                guard let value = lookup(name, in: stack) else { continue }
                write(value, escaped: escaped)
            case .section(let name, let body):
                guard let value = lookup(name, in: stack) else { continue }
                switch value {
                case .list(let items):
                    for item in items { render(body, inside: item, stack: &stack, indentation: indentation, inherited: inherited) }
                case .lazyList(let list):
                    for index in 0..<list.count {
                        render(body, inside: list.item(index), stack: &stack, indentation: indentation, inherited: inherited)
                    }
                case .bool(let flag):
                    if flag { render(body, stack: &stack, indentation: indentation, inherited: inherited) }
                case .null:
                    continue
                case .string, .int, .object:
                    render(body, inside: value, stack: &stack, indentation: indentation, inherited: inherited)
                }
            case .inverted(let name, let body):
                let value = lookup(name, in: stack)
                switch value {
                case .list(let items)?:
                    if items.isEmpty { render(body, stack: &stack, indentation: indentation, inherited: inherited) }
                case .lazyList(let list)?:
                    if list.count == 0 { render(body, stack: &stack, indentation: indentation, inherited: inherited) }
                case .bool(let flag)?:
                    if !flag { render(body, stack: &stack, indentation: indentation, inherited: inherited) }
                case nil, .null?:
                    render(body, stack: &stack, indentation: indentation, inherited: inherited)
                case .string?, .int?, .object?:
                    continue
                }
            case .partial(let name, let indented, let overrides):
                guard let partial = templates[name] else { continue }
                var blocks = inherited
                if let overrides {
                    // The outermost template's blocks win: a page overrides its layout's defaults.
                    blocks = inherited.map { $0.merging(overrides) { outer, _ in outer } } ?? overrides
                }
                render(partial, stack: &stack, indentation: indented.map { indentation + $0 } ?? indentation, inherited: blocks)
            case .block(let name, let fallback, let indented):
                render(inherited?[name] ?? fallback, stack: &stack, indentation: indentation + indented, inherited: inherited)
            case .blockDefinition:
                continue
            }
        }
    }

    private mutating func render(_ body: [MustacheNode], inside item: TemplateValue, stack: inout [TemplateValue],
                                 indentation: [UInt8], inherited: [String: [MustacheNode]]?) {
        stack.append(item)
        render(body, stack: &stack, indentation: indentation, inherited: inherited)
        stack.removeLast()
    }

    /// The output since `start` ends with a "\n" not part of "\r\n" (a line ended by "\r\n" takes no indentation).
    private func endsLine(since start: Int) -> Bool {
        let count = output.count
        guard count > start, output[count - 1] == UInt8(ascii: "\n") else { return false }
        return count - start < 2 || output[count - 2] != UInt8(ascii: "\r")
    }

    private mutating func write(_ value: TemplateValue, escaped: Bool) {
        switch value {
        case .string(let string):
            var string = string
            string.withUTF8 { bytes in
                if escaped { Self.escape(bytes, into: &output) } else { output.append(bytes) }
            }
        case .int(let number):
            output.append(String(number))
        case .bool(let flag):
            output.append(flag ? "true" : "false")
        case .list, .lazyList, .object, .null:
            // A list or an object has no text of its own.
            return
        }
    }

    /// HTML-escapes UTF-8 bytes: `&`, `<`, `>`, `"` and `'`; every other byte is copied (no byte of a multi-byte sequence
    /// is ASCII).
    static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout OutputBuffer) {
        var start = 0
        for index in 0..<bytes.count {
            let replacement: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            default: continue
            }
            if index > start { output.append(UnsafeBufferPointer(rebasing: bytes[start..<index])) }
            output.append(replacement)
            start = index + 1
        }
        if bytes.count > start { output.append(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count])) }
    }

    /// The value `name` reads: `.` is the current item; `a.b` finds `a` in the nearest item
    /// that has it (only the current one for `.a`), then `b` in it. `nil` when there is none.
    private func lookup(_ name: MustacheName, in stack: [TemplateValue]) -> TemplateValue? {
        if name.isImplicit { return stack.last }
        guard let first = name.parts.first else { return nil }
        var found: TemplateValue?
        if name.isAnchored {
            if case .object(let object)? = stack.last { found = object[first] }
        } else {
            for item in stack.reversed() {
                if case .object(let object) = item, let value = object[first] {
                    found = value
                    break
                }
            }
        }
        guard var value = found else { return nil }
        for part in name.parts.dropFirst() {
            guard case .object(let object) = value, let child = object[part] else { return nil }
            value = child
        }
        return value
    }
}
