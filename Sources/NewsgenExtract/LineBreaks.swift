import NewsgenXML

/// Pages that write paragraphs as text separated by `<br><br>` get real paragraphs: each run of two or more `<br>`
/// starts a `<p>` holding the phrasing content up to the next such run.
enum LineBreaks {
    static func replaceDoubleBreaks(in body: Int, of tree: inout HTMLTree) {
        for lineBreak in tree.descendants(of: body, named: ["br"]) where tree.parent(of: lineBreak) != nil {
            var replaced = false
            var next = nextContent(after: lineBreak, in: tree)
            while let following = next, tree.isElement(following), tree.name(following) == "br" {
                replaced = true
                next = nextContent(after: following, in: tree)
                tree.detach(following)
            }
            guard replaced else { continue }
            let paragraph = tree.makeElement("p")
            tree.replace(lineBreak, with: paragraph)
            var sibling = tree.nextNode(paragraph)
            while sibling != HTMLTree.none {
                if tree.isElement(sibling), tree.name(sibling) == "br",
                   let after = nextContent(after: sibling, in: tree), tree.isElement(after), tree.name(after) == "br" {
                    break
                }
                guard tree.isPhrasingContent(sibling) else { break }
                let following = tree.nextNode(sibling)
                tree.append(sibling, to: paragraph)
                sibling = following
            }
            while tree.lastChild(paragraph) != HTMLTree.none, tree.isWhitespaceNode(tree.lastChild(paragraph)) {
                tree.detach(tree.lastChild(paragraph))
            }
            if let parent = tree.parent(of: paragraph), tree.name(parent) == "p" { tree.rename(parent, to: "div") }
        }
    }

    /// The first sibling after `node` that is an element or text with more than whitespace.
    private static func nextContent(after node: Int, in tree: HTMLTree) -> Int? {
        var next = tree.nextNode(node)
        while next != HTMLTree.none {
            if tree.isElement(next) || !HTMLTree.isBlank(tree.text(next)) { return next }
            next = tree.nextNode(next)
        }
        return nil
    }
}

extension HTMLTree {
    static let phrasingElements: Set<String> = [
        "abbr", "audio", "b", "bdo", "br", "button", "cite", "code", "data", "datalist", "dfn", "em", "embed", "i",
        "img", "input", "kbd", "label", "mark", "math", "meter", "noscript", "object", "output", "progress", "q",
        "ruby", "samp", "script", "select", "small", "span", "strong", "sub", "sup", "textarea", "time", "var", "wbr",
    ]

    /// Text, inline elements, and links (`a`, `del`, `ins`) holding only those.
    func isPhrasingContent(_ node: Int) -> Bool {
        if isText(node) { return true }
        let name = name(node)
        if Self.phrasingElements.contains(name) { return true }
        if name == "a" || name == "del" || name == "ins" {
            return childNodes(of: node).allSatisfy(isPhrasingContent)
        }
        return false
    }

    /// Whitespace-only text, or a `<br>`.
    func isWhitespaceNode(_ node: Int) -> Bool {
        if isText(node) { return Self.isBlank(text(node)) }
        return name(node) == "br"
    }
}
