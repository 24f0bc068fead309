import CLibXML2

/// An element as libxml2's reader holds it while a scan visits it (`LibXML.scanElements`,
/// `LibXML.checkStreaming`):
/// its name and attributes are read in place, and copied only when asked for. It is valid only
/// during the visit; `element` copies what outlives it.
package struct ElementView {
    fileprivate let node: xmlNodePtr

    init(node: xmlNodePtr) {
        self.node = node
    }

    /// The line of its start tag.
    package var line: Int { Int(xmlGetLineNo(node)) }

    /// Its local name.
    package var name: String { LibXML.string(node.pointee.name) ?? "" }

    /// Whether its local name is `name` (read in place).
    package func isNamed(_ name: StaticString) -> Bool {
        Self.equal(node.pointee.name, name)
    }

    /// Its name, namespace, attributes and line, copied.
    package var element: XMLElement { LibXML.shallowElement(node) }

    /// Whether it has the attribute `name` (in no namespace).
    package func hasAttribute(_ name: StaticString) -> Bool {
        attributeNode(name) != nil
    }

    /// The value of the attribute `name` (in no namespace).
    package func attribute(_ name: StaticString) -> String? {
        withAttribute(name) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of the attribute `name` (in no namespace), in place when
    /// libxml2 holds the value as one text; `nil` without the attribute.
    package func withAttribute<Result>(_ name: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard let attribute = attributeNode(name) else { return nil }
        guard let text = attribute.pointee.children else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        if text.pointee.next == nil, let content = text.pointee.content {
            return body(UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
        }
        var copied = LibXML.copyText(of: text)
        return copied.withUTF8(body)
    }

    private func attributeNode(_ name: StaticString) -> xmlAttrPtr? {
        var attribute = node.pointee.properties
        while let current = attribute {
            if current.pointee.ns == nil && Self.equal(current.pointee.name, name) { return current }
            attribute = current.pointee.next
        }
        return nil
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
