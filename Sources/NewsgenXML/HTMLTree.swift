import CLibXML2
import Foundation

/// A whole HTML page as an editable tree of Swift values, for code that must move, rename and remove elements
/// (the article extractor). Nodes live in one array and refer to each other by index, so a copy of the tree is a
/// cheap copy-on-write value and an edit never invalidates another node's index. Removed nodes stay in the array,
/// detached; only nodes reachable from `root` belong to the page.
///
/// Element and attribute names are lowercase (libxml2's HTML parser folds them); text is decoded (no entities).
package struct HTMLTree: Sendable {
    /// "No node" in the links between nodes.
    package static let none = -1

    package enum Kind: Sendable, Hashable {
        case element, text
    }

    package struct Attribute: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    package struct Node: Sendable {
        package var kind: Kind
        /// The element's lowercase name; empty for text.
        package var name: String
        package var attributes: [Attribute]
        /// The text of a text node; empty for an element.
        package var text: String
        package fileprivate(set) var parent = HTMLTree.none
        package fileprivate(set) var firstChild = HTMLTree.none
        package fileprivate(set) var lastChild = HTMLTree.none
        package fileprivate(set) var next = HTMLTree.none
        package fileprivate(set) var previous = HTMLTree.none

        package var isElement: Bool { kind == .element }
    }

    package private(set) var nodes: [Node] = []
    /// The `html` element (libxml2 always makes one).
    package private(set) var root = HTMLTree.none

    package init() {
        root = makeElement("html")
    }

    package subscript(_ index: Int) -> Node { nodes[index] }

    // MARK: - Reading

    package func name(_ index: Int) -> String { nodes[index].name }

    package func attribute(_ name: String, of index: Int) -> String? {
        for attribute in nodes[index].attributes where attribute.name == name { return attribute.value }
        return nil
    }

    package func parent(of index: Int) -> Int? {
        let parent = nodes[index].parent
        return parent == Self.none ? nil : parent
    }

    /// All child nodes (elements and text), in order.
    package func childNodes(of index: Int) -> [Int] {
        var result: [Int] = []
        var child = nodes[index].firstChild
        while child != Self.none {
            result.append(child)
            child = nodes[child].next
        }
        return result
    }

    /// The element children, in order.
    package func children(of index: Int) -> [Int] {
        var result: [Int] = []
        var child = nodes[index].firstChild
        while child != Self.none {
            if nodes[child].kind == .element { result.append(child) }
            child = nodes[child].next
        }
        return result
    }

    package func firstElementChild(of index: Int) -> Int? {
        var child = nodes[index].firstChild
        while child != Self.none {
            if nodes[child].kind == .element { return child }
            child = nodes[child].next
        }
        return nil
    }

    package func nextElementSibling(of index: Int) -> Int? {
        var sibling = nodes[index].next
        while sibling != Self.none {
            if nodes[sibling].kind == .element { return sibling }
            sibling = nodes[sibling].next
        }
        return nil
    }

    package func previousElementSibling(of index: Int) -> Int? {
        var sibling = nodes[index].previous
        while sibling != Self.none {
            if nodes[sibling].kind == .element { return sibling }
            sibling = nodes[sibling].previous
        }
        return nil
    }

    /// The elements below `index` named one of `names` (all elements when `names` is nil), in document order.
    package func descendants(of index: Int, named names: Set<String>? = nil) -> [Int] {
        var result: [Int] = []
        forEachDescendant(of: index) { node in
            if nodes[node].kind == .element, names?.contains(nodes[node].name) ?? true { result.append(node) }
        }
        return result
    }

    /// Calls `body` with every node below `index` (elements and text), in document order.
    package func forEachDescendant(of index: Int, _ body: (Int) -> Void) {
        var node = nodes[index].firstChild
        while node != Self.none {
            body(node)
            node = following(node, within: index)
        }
    }

    /// The node after `node` in document order, not leaving `scope`'s subtree; nil at its end.
    package func following(_ node: Int, within scope: Int) -> Int {
        if nodes[node].firstChild != Self.none { return nodes[node].firstChild }
        var current = node
        while current != scope && current != Self.none {
            if nodes[current].next != Self.none { return nodes[current].next }
            current = nodes[current].parent
        }
        return Self.none
    }

    /// Whether `index` is inside `ancestor`'s subtree (or is it).
    package func isInside(_ index: Int, _ ancestor: Int) -> Bool {
        var node = index
        while node != Self.none {
            if node == ancestor { return true }
            node = nodes[node].parent
        }
        return false
    }

    /// All the text below `index`, like DOM's `textContent`.
    package func textContent(of index: Int) -> String {
        if nodes[index].kind == .text { return nodes[index].text }
        var result = ""
        forEachDescendant(of: index) { node in
            if nodes[node].kind == .text { result += nodes[node].text }
        }
        return result
    }

    // MARK: - Editing

    /// A new, detached element.
    package mutating func makeElement(_ name: String, attributes: [Attribute] = []) -> Int {
        nodes.append(Node(kind: .element, name: name, attributes: attributes, text: ""))
        return nodes.count - 1
    }

    /// A new, detached text node.
    package mutating func makeText(_ text: String) -> Int {
        nodes.append(Node(kind: .text, name: "", attributes: [], text: text))
        return nodes.count - 1
    }

    package mutating func rename(_ index: Int, to name: String) {
        nodes[index].name = name
    }

    package mutating func setAttribute(_ name: String, _ value: String?, of index: Int) {
        nodes[index].attributes.removeAll { $0.name == name }
        if let value { nodes[index].attributes.append(Attribute(name: name, value: value)) }
    }

    package mutating func setText(_ text: String, of index: Int) {
        nodes[index].text = text
    }

    /// Takes `index` (with its subtree) out of its parent; it stays in the array, unreachable.
    package mutating func detach(_ index: Int) {
        let node = nodes[index]
        if node.previous != Self.none { nodes[node.previous].next = node.next }
        if node.next != Self.none { nodes[node.next].previous = node.previous }
        if node.parent != Self.none {
            if nodes[node.parent].firstChild == index { nodes[node.parent].firstChild = node.next }
            if nodes[node.parent].lastChild == index { nodes[node.parent].lastChild = node.previous }
        }
        nodes[index].parent = Self.none
        nodes[index].next = Self.none
        nodes[index].previous = Self.none
    }

    /// Moves `child` (detaching it first) to the end of `parent`'s children.
    package mutating func append(_ child: Int, to parent: Int) {
        detach(child)
        let last = nodes[parent].lastChild
        nodes[child].parent = parent
        nodes[child].previous = last
        if last != Self.none { nodes[last].next = child } else { nodes[parent].firstChild = child }
        nodes[parent].lastChild = child
    }

    /// Moves `child` (detaching it first) right before `sibling`, which must have a parent.
    package mutating func insert(_ child: Int, before sibling: Int) {
        detach(child)
        let parent = nodes[sibling].parent
        let previous = nodes[sibling].previous
        nodes[child].parent = parent
        nodes[child].next = sibling
        nodes[child].previous = previous
        nodes[sibling].previous = child
        if previous != Self.none { nodes[previous].next = child } else if parent != Self.none { nodes[parent].firstChild = child }
    }

    /// Puts `replacement` where `index` is; `index` ends up detached.
    package mutating func replace(_ index: Int, with replacement: Int) {
        guard nodes[index].parent != Self.none else { return }
        insert(replacement, before: index)
        detach(index)
    }

    // MARK: - Copying out

    /// `index`'s subtree as an `XMLElement` (for `HTMLSanitizer`), with `base` for its relative references.
    package func element(_ index: Int, base: String?) -> XMLElement {
        var element = XMLElement(name: nodes[index].name,
                                 attributes: nodes[index].attributes.map { .init(name: $0.name, namespace: nil, value: $0.value) },
                                 base: base)
        var child = nodes[index].firstChild
        while child != Self.none {
            switch nodes[child].kind {
            case .text: element.nodes.append(.text(nodes[child].text))
            case .element: element.nodes.append(.element(self.element(child, base: base)))
            }
            child = nodes[child].next
        }
        return element
    }
}

// MARK: - Parsing

extension HTMLTree {
    /// Parses a whole HTML page with libxml2's lenient HTML parser. `encoding` is the name of the bytes' character
    /// encoding as libxml2 (iconv) knows it; a `<meta charset>` in the page does not override it. Comments and
    /// processing instructions are dropped. Throws when the page goes over `limits` (element count, attributes,
    /// deadline); `nil` when libxml2 made no document at all.
    package static func parse(_ bytes: [UInt8], encoding: String, url: String,
                              limits: DocumentLimits = .standard) throws(DocumentLimitError) -> HTMLTree? {
        try limits.checkMarkup(bytes)
        try limits.checkTime()
        _ = LibXML.installGuards
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue
            | HTML_PARSE_IGNORE_ENC.rawValue)
        let collector = LibXML.DiagnosticCollector()
        let result = LibXML.collecting(into: collector) { () -> Result<HTMLTree?, DocumentLimitError> in
            let document = bytes.withUnsafeBytes { buffer -> htmlDocPtr? in
                guard let base = buffer.baseAddress, !buffer.isEmpty, let context = htmlNewParserCtxt() else { return nil }
                defer { htmlFreeParserCtxt(context) }
                // Whitespace between elements is text, as in a browser: libxml2 would drop some ("ignorable") and run
                // the words on either side together.
                context.pointee.sax.pointee.ignorableWhitespace = xmlSAX2Characters
                return htmlCtxtReadMemory(context, base.assumingMemoryBound(to: CChar.self), Int32(clamping: buffer.count), url, encoding, options)
            }
            guard let document else { return .success(nil) }
            defer { xmlFreeDoc(document) }
            guard let root = xmlDocGetRootElement(document) else { return .success(nil) }
            var builder = Builder(limits: limits)
            let top = builder.tree.root
            do throws(DocumentLimitError) {
                try builder.copy(root, into: top, depth: 0)
            } catch {
                return .failure(error)
            }
            return .success(builder.tree)
        }
        return try result.get()
    }

    /// Whether libxml2 can decode `encoding` (its own decoders, or iconv's).
    package static func canDecode(_ encoding: String) -> Bool {
        _ = LibXML.installGuards
        guard let handler = xmlFindCharEncodingHandler(encoding) else { return false }
        _ = xmlCharEncCloseFunc(handler)
        return true
    }

    /// Copies libxml2's nodes into a tree; checks the deadline every few thousand nodes.
    private struct Builder {
        var tree = HTMLTree()
        let limits: DocumentLimits
        var count = 0
        static let maximumDepth = 256

        init(limits: DocumentLimits) {
            self.limits = limits
        }

        /// Copies `node`'s attributes and children into `target`.
        mutating func copy(_ node: xmlNodePtr, into target: Int, depth: Int) throws(DocumentLimitError) {
            var attribute = node.pointee.properties
            while let current = attribute {
                let name = LibXML.string(current.pointee.name) ?? ""
                let value = current.pointee.children.map { LibXML.copyText(of: $0) } ?? ""
                tree.nodes[target].attributes.append(Attribute(name: name.lowercased(), value: value))
                attribute = current.pointee.next
            }
            guard depth < Self.maximumDepth else { return }
            var child = node.pointee.children
            while let current = child {
                count &+= 1
                if count & 4095 == 0 { try limits.checkTime() }
                switch current.pointee.type {
                case XML_ELEMENT_NODE:
                    let name = (LibXML.string(current.pointee.name) ?? "").lowercased()
                    let element = tree.makeElement(name)
                    tree.append(element, to: target)
                    try copy(current, into: element, depth: depth + 1)
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    if let content = LibXML.string(current.pointee.content), !content.isEmpty {
                        // Adjacent text (split by a dropped comment) becomes one node, as a browser's DOM has it.
                        let last = tree.nodes[target].lastChild
                        if last != HTMLTree.none, tree.nodes[last].kind == .text {
                            tree.nodes[last].text += content
                        } else {
                            tree.append(tree.makeText(content), to: target)
                        }
                    }
                default:
                    break
                }
                child = current.pointee.next
            }
        }
    }
}
