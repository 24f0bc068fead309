import CLibXML2

/// An element during a scan (`LibXML.scanElements`, `LibXML.checkStreaming`): name and attributes are read in
/// place from libxml2, valid only during the visit; `element` copies what must outlive it.
package struct ElementView {
    private enum Source {
        /// A node of libxml2's streaming reader.
        case node(xmlNodePtr)
        /// A start tag as libxml2's SAX2 parser passes it.
        case tag(StartTag)
    }

    /// A SAX2 start tag: local name, namespace, and five pointers per attribute (local name, prefix, namespace, value,
    /// value end), with each `&` in values written as `&#38;` (libxml2 leaves that reference for a tree to decode).
    struct StartTag {
        var name: UnsafePointer<xmlChar>
        var namespace: UnsafePointer<xmlChar>?
        var attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
        var attributeCount: Int
        var line: Int
    }

    private let source: Source

    init(node: xmlNodePtr) {
        source = .node(node)
    }

    init(tag: StartTag) {
        source = .tag(tag)
    }

    /// The line of its start tag (where the tag ends, for one over several lines).
    package var line: Int {
        switch source {
        case .node(let node): Int(xmlGetLineNo(node))
        case .tag(let tag): tag.line
        }
    }

    package var name: String { LibXML.string(namePointer) ?? "" }

    /// Whether its local name is `name` (read in place).
    package func isNamed(_ name: StaticString) -> Bool {
        Self.equal(namePointer, name)
    }

    private var namePointer: UnsafePointer<xmlChar>? {
        switch source {
        case .node(let node): node.pointee.name
        case .tag(let tag): tag.name
        }
    }

    /// Its name, namespace, attributes and line, copied.
    package var element: XMLElement {
        switch source {
        case .node(let node):
            return LibXML.shallowElement(node)
        case .tag(let tag):
            var element = XMLElement(name: LibXML.string(tag.name) ?? "", namespace: LibXML.string(tag.namespace), line: tag.line)
            for index in 0..<tag.attributeCount {
                guard let fields = tag.attributes?.advanced(by: 5 * index) else { break }
                element.attributes.append(.init(
                    name: LibXML.string(fields[0]) ?? "",
                    namespace: LibXML.string(fields[2]),
                    value: Self.withValue(fields) { String(decoding: $0, as: UTF8.self) }
                ))
            }
            return element
        }
    }

    /// Whether it has the attribute `name` (in no namespace).
    package func hasAttribute(_ name: StaticString) -> Bool {
        switch source {
        case .node: attributeNode(name) != nil
        case .tag(let tag): Self.attributeFields(name, of: tag) != nil
        }
    }

    /// The value of the attribute `name` (in no namespace).
    package func attribute(_ name: StaticString) -> String? {
        withAttribute(name) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of attribute `name` (no namespace), in place when possible; `nil` without it.
    package func withAttribute<Result>(_ name: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        switch source {
        case .node:
            guard let attribute = attributeNode(name) else { return nil }
            guard let text = attribute.pointee.children else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            if text.pointee.next == nil, let content = text.pointee.content {
                return body(UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
            }
            var copied = LibXML.copyText(of: text)
            return copied.withUTF8(body)
        case .tag(let tag):
            guard let fields = Self.attributeFields(name, of: tag) else { return nil }
            return Self.withValue(fields, body)
        }
    }

    private func attributeNode(_ name: StaticString) -> xmlAttrPtr? {
        guard case .node(let node) = source else { return nil }
        var attribute = node.pointee.properties
        while let current = attribute {
            if current.pointee.ns == nil && Self.equal(current.pointee.name, name) { return current }
            attribute = current.pointee.next
        }
        return nil
    }

    /// The five fields of the start tag's attribute `name` in no namespace.
    private static func attributeFields(_ name: StaticString, of tag: StartTag) -> UnsafeMutablePointer<UnsafePointer<xmlChar>?>? {
        guard let attributes = tag.attributes else { return nil }
        for index in 0..<tag.attributeCount {
            let fields = attributes.advanced(by: 5 * index)
            if fields[2] == nil && equal(fields[0], name) { return fields }
        }
        return nil
    }

    /// Calls `body` with an attribute's value: in place, or decoded when it holds `&#38;`.
    private static func withValue<Result>(_ fields: UnsafeMutablePointer<UnsafePointer<xmlChar>?>,
                                          _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard let start = fields[3], let end = fields[4] else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        let raw = UnsafeBufferPointer(start: start, count: end - start)
        guard raw.contains(UInt8(ascii: "&")) else { return body(raw) }
        return decoded(Array(raw)).withUnsafeBufferPointer(body)
    }

    /// `bytes` with each `&#38;` turned back into `&`. libxml2 writes every `&` that way and no other reference.
    private static func decoded(_ bytes: [UInt8]) -> [UInt8] {
        let reference = Array("&#38;".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), bytes[index...].starts(with: reference) {
                result.append(UInt8(ascii: "&"))
                index += reference.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// Whether libxml2's NUL-terminated `text` is `name`.
    private static func equal(_ text: UnsafePointer<xmlChar>?, _ name: StaticString) -> Bool {
        guard let text else { return false }
        let expected = name.utf8Start
        let count = name.utf8CodeUnitCount
        // Stops at the first difference, so a shorter text is never read past its terminator.
        for index in 0..<count where text[index] != expected[index] { return false }
        return text[count] == 0
    }
}
