import Foundation
import NewsgenModel
/// An XML element copied out of libxml2 into Swift values; feed readers never touch C pointers.
package struct XMLElement: Sendable {
    /// A child of an element: another element or a run of character data (text or CDATA).
    package enum Node: Sendable {
        case element(XMLElement)
        case text(String)
    }

    package struct Attribute: Sendable {
        package var name: String
        package var namespace: String?
        package var value: String
    }

    /// The local name, without prefix.
    package var name: String
    /// The namespace URI, if the element is in one.
    package var namespace: String?
    package var attributes: [Attribute]
    package var nodes: [Node]
    /// The line in the source document (for messages).
    package var line: Int
    /// The base for relative references: `xml:base` resolved against the parent's, outermost the document URL.
    package var base: String?

    package init(name: String, namespace: String? = nil, attributes: [Attribute] = [], nodes: [Node] = [], line: Int = 0, base: String? = nil) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.nodes = nodes
        self.line = line
        self.base = base
    }

    /// `reference` made absolute against this element's base when relative and the base is known; else as written, trimmed.
    package func resolving(_ reference: String?) -> String? {
        guard let reference = reference?.trimmedWhitespace, !reference.isEmpty else { return nil }
        return Self.resolve(reference, against: base) ?? reference
    }

    /// `reference` resolved against `base` (RFC 3986), or `nil` when `base` is not an absolute URL.
    package static func resolve(_ reference: String, against base: String?) -> String? {
        if URLNormalizer.isNormalized(reference) { return reference }
        if let url = URL(string: reference), url.scheme != nil { return reference }
        guard let base, let baseURL = URL(string: base), baseURL.scheme != nil else { return nil }
        return URL(string: reference, relativeTo: baseURL)?.absoluteString
    }

    /// The element children, in document order.
    package var children: [XMLElement] {
        nodes.compactMap { node in
            if case .element(let element) = node { return element }
            return nil
        }
    }

    /// All character data below this element, in document order (like DOM's textContent).
    package var text: String {
        var result = ""
        appendText(to: &result)
        return result
    }

    private func appendText(to result: inout String) {
        for node in nodes {
            switch node {
            case .text(let text): result += text
            case .element(let element): element.appendText(to: &result)
            }
        }
    }

    /// The first child with this local name in this namespace (`nil` namespace matches any).
    package func child(_ name: String, in namespace: String? = nil) -> XMLElement? {
        for node in nodes {
            if case .element(let element) = node, element.name == name,
               namespace == nil || element.namespace == namespace {
                return element
            }
        }
        return nil
    }

    /// Every child with this local name in this namespace (`nil` namespace matches any).
    package func children(_ name: String, in namespace: String? = nil) -> [XMLElement] {
        children.filter { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// The value of an attribute by local name; `namespace` `nil` matches an unqualified attribute.
    package func attribute(_ name: String, in namespace: String? = nil) -> String? {
        attributes.first { $0.name == name && $0.namespace == namespace }?.value
    }

    /// The first element below this one, depth first, that satisfies `predicate`.
    package func firstDescendant(where predicate: (XMLElement) -> Bool) -> XMLElement? {
        for child in children {
            if predicate(child) { return child }
            if let found = child.firstDescendant(where: predicate) { return found }
        }
        return nil
    }
}

/// A problem libxml2 reported while parsing or validating, with its position.
package struct XMLDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: Sendable, Hashable {
        case warning, error, fatal
    }

    public var line: Int
    public var column: Int
    public var message: String
    public var severity: Severity
    /// For a validity error, the local name of the element it is about (to find its column).
    public var element: String?
    /// The document holds a character XML forbids (or bytes that are not UTF-8).
    public var isForbiddenCharacter: Bool
    /// A schema's validity error, not a well-formedness one.
    public var isValidity: Bool

    package init(
        line: Int, column: Int, message: String, severity: Severity, element: String? = nil,
        isForbiddenCharacter: Bool = false, isValidity: Bool = false
    ) {
        self.line = line
        self.column = column
        self.message = message
        self.severity = severity
        self.element = element
        self.isForbiddenCharacter = isForbiddenCharacter
        self.isValidity = isValidity
    }

    public var description: String { "\(line):\(column): \(message)" }
}
