import NewsgenXML

/// Finds the element holding a page's story and gathers it, with the siblings that belong to it, into a new
/// `div`. One `ContentFinder` is one attempt under one set of `Rules`; `ArticleFinder` retries with looser rules
/// when an attempt finds too little.
///
/// Scoring: every paragraph-like element (`p`, `pre`, `td`, `section`, `h2`–`h6`, and `div`s that hold only
/// phrasing content) of 25 characters or more earns 1 point, 1 per comma and 1 per 100 characters (at most 3),
/// and gives them to its parent in full, its grandparent by half and further ancestors (up to five levels) by a
/// third of the level. Each ancestor starts from its tag's score (`div` +5, lists and headings negative) and its
/// class/id weight, and its total is scaled by the share of its text outside links. The best ancestor is the
/// story, moved up the tree while its parent scores about as well; its siblings join it when they score at least
/// a fifth of it or are paragraphs that read like prose.
struct ContentFinder {
    struct Rules: OptionSet, Sendable {
        let rawValue: Int
        /// Remove elements whose class/id name an unlikely part (comments, sidebars) before scoring.
        static let stripUnlikely = Rules(rawValue: 1)
        /// Let class/id hints weigh on scores.
        static let weightClasses = Rules(rawValue: 2)
        /// Remove lists, tables and divs that look like navigation or widgets from the result.
        static let cleanConditionally = Rules(rawValue: 4)
        static let all: Rules = [.stripUnlikely, .weightClasses, .cleanConditionally]
    }

    var tree: HTMLTree
    let rules: Rules
    /// The article's title, to drop the heading that repeats it.
    let title: String
    /// A byline found in the page's body (removed from the content); only looked for when `lookForByline`.
    var byline: String?
    let lookForByline: Bool
    var scores: [Int: Double] = [:]

    init(tree: HTMLTree, rules: Rules, title: String, lookForByline: Bool) {
        self.tree = tree
        self.rules = rules
        self.title = title
        self.lookForByline = lookForByline
    }

    static let tagsToScore: Set<String> = ["section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"]
    static let blockChildren: Set<String> = ["blockquote", "dl", "div", "img", "ol", "p", "pre", "table", "ul"]
    static let keptSiblingNames: Set<String> = ["div", "article", "section", "p"]
    static let hidingStyles = ClassHints.Words(["display:none", "visibility:hidden"])
    static let fallbackImage = ClassHints.Words(["fallback-image"])
    static let author = ClassHints.Words(["author"])

    static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    static let emptyRemovable: Set<String> = ["div", "section", "header", "h1", "h2", "h3", "h4", "h5", "h6"]

    /// Runs the attempt: returns the new `div` holding the content (detached from the page), cleaned.
    mutating func run() -> Int {
        let body = tree.children(of: tree.root).first { tree.name($0) == "body" } ?? tree.root
        let toScore = prepareNodes()
        let candidates = score(toScore)
        let top = chooseTop(candidates, body: body)
        let article = gatherSiblings(of: top)
        var cleaner = ContentCleaner(tree: tree, rules: rules)
        tree = HTMLTree()  // the cleaner's copy is then the only one: its edits copy nothing
        cleaner.clean(article)
        tree = cleaner.tree
        return article
    }

    // MARK: - Preparing

    /// Walks the page removing hidden and unlikely elements, the byline and the title's heading; turns `div`s used
    /// as paragraphs into `p`s; returns the elements to score.
    private mutating func prepareNodes() -> [Int] {
        var toScore: [Int] = []
        var titleHeadingRemoved = false
        var current: Int? = tree.root
        while let node = current {
            let names = tree.classAndID(node)
            let name = tree.name(node)
            if !isProbablyVisible(node)
                || (tree.attribute("aria-modal", of: node) == "true" && tree.attribute("role", of: node) == "dialog")
                || isConsentBanner(node, names: names) {
                current = removeAndGetNext(node)
                continue
            }
            if lookForByline, byline == nil, isByline(node, names: names) {
                byline = tree.innerText(node)
                current = removeAndGetNext(node)
                continue
            }
            if !titleHeadingRemoved, name == "h1" || name == "h2", Self.similarity(title, tree.innerText(node)) > 0.75 {
                titleHeadingRemoved = true
                current = removeAndGetNext(node)
                continue
            }
            if rules.contains(.stripUnlikely) {
                if ClassHints.unlikely.matches(names), !ClassHints.mayBeContent.matches(names),
                   !hasAncestor(node, named: "table"), !hasAncestor(node, named: "code"), name != "body", name != "a" {
                    current = removeAndGetNext(node)
                    continue
                }
                if let role = tree.attribute("role", of: node), ClassHints.unlikelyRoles.contains(role) {
                    current = removeAndGetNext(node)
                    continue
                }
            }
            if Self.emptyRemovable.contains(name), isWithoutContent(node) {
                current = removeAndGetNext(node)
                continue
            }
            if Self.tagsToScore.contains(name) { toScore.append(node) }
            var visited = node
            if name == "div" {
                wrapPhrasing(in: node)
                if let only = singleChild(of: node, named: "p"), tree.linkDensity(node) < 0.25 {
                    tree.replace(node, with: only)
                    visited = only
                    toScore.append(only)
                } else if !hasBlockDescendant(node) {
                    tree.rename(node, to: "p")
                    toScore.append(node)
                }
            }
            current = next(after: visited)
        }
        return toScore
    }

    /// Gathers each run of phrasing content directly in a `div` into a `p`.
    private mutating func wrapPhrasing(in div: Int) {
        var paragraph: Int?
        for child in tree.childNodes(of: div) {
            if isPhrasing(child) {
                if let paragraph {
                    tree.append(child, to: paragraph)
                } else if !isWhitespace(child) {
                    let created = tree.makeElement("p")
                    tree.replace(child, with: created)
                    tree.append(child, to: created)
                    paragraph = created
                }
            } else if let open = paragraph {
                trimTrailingWhitespace(open)
                paragraph = nil
            }
        }
    }

    private mutating func trimTrailingWhitespace(_ element: Int) {
        while tree.lastChild(element) != HTMLTree.none, isWhitespace(tree.lastChild(element)) {
            tree.detach(tree.lastChild(element))
        }
    }

    // MARK: - Scoring

    /// Scores the ancestors of each element; returns the ancestors scored, in the order first scored.
    private mutating func score(_ elements: [Int]) -> [Int] {
        var candidates: [Int] = []
        for element in elements {
            guard let parent = tree.parent(of: element), tree.isElement(parent), tree.isInside(element, tree.root) else { continue }
            let measure = tree.measure(element)
            guard measure.length >= 25 else { continue }
            let points = 1 + Double(measure.commas + 1) + Double(min(measure.length / 100, 3))
            var ancestor: Int? = parent
            var level = 0
            while let node = ancestor, level < 5 {
                // The root (`html`) is never a candidate.
                guard tree.parent(of: node) != nil else { break }
                if scores[node] == nil {
                    scores[node] = initialScore(node)
                    candidates.append(node)
                }
                let divider = level == 0 ? 1.0 : level == 1 ? 2.0 : Double(level * 3)
                scores[node, default: 0] += points / divider
                ancestor = tree.parent(of: node)
                level += 1
            }
        }
        return candidates
    }

    private func initialScore(_ node: Int) -> Double {
        var score = 0.0
        switch tree.name(node) {
        case "div": score += 5
        case "pre", "td", "blockquote": score += 3
        case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": score -= 3
        case "h1", "h2", "h3", "h4", "h5", "h6", "th": score -= 5
        default: break
        }
        return score + Double(classWeight(node))
    }

    func classWeight(_ node: Int) -> Int {
        guard rules.contains(.weightClasses) else { return 0 }
        return ClassHints.weight(of: tree.attribute("class", of: node) ?? "") + ClassHints.weight(of: tree.attribute("id", of: node) ?? "")
    }

    // MARK: - Choosing

    private mutating func chooseTop(_ candidates: [Int], body: Int) -> Int {
        var top: [Int] = []
        for candidate in candidates {
            let scaled = (scores[candidate] ?? 0) * (1 - tree.linkDensity(candidate))
            scores[candidate] = scaled
            if let position = top.firstIndex(where: { scaled > (scores[$0] ?? 0) }) {
                top.insert(candidate, at: position)
                if top.count > 5 { top.removeLast() }
            } else if top.count < 5 {
                top.append(candidate)
            }
        }
        guard var best = top.first, tree.name(best) != "body" else {
            // No candidate: the whole body, moved into a new div.
            let container = tree.makeElement("div")
            for child in tree.childNodes(of: body) { tree.append(child, to: container) }
            tree.append(container, to: body)
            scores[container] = initialScore(container)
            return container
        }
        let bestScore = scores[best] ?? 0
        // Several close runners-up inside one ancestor: the ancestor is the story (pages splitting it in parts).
        let runnersUp = top.dropFirst().filter { bestScore > 0 && (scores[$0] ?? 0) / bestScore >= 0.75 }
        if runnersUp.count >= 3 {
            let ancestorLists = runnersUp.map { Set(ancestors(of: $0)) }
            var parent = tree.parent(of: best)
            while let node = parent, tree.name(node) != "body", node != tree.root {
                if ancestorLists.filter({ $0.contains(node) }).count >= 3 {
                    best = node
                    break
                }
                parent = tree.parent(of: node)
            }
        }
        if scores[best] == nil { scores[best] = initialScore(best) }
        // Climb while the parent scores about as well; take it if it scores better.
        var lastScore = scores[best] ?? 0
        let threshold = lastScore / 3
        var parent = tree.parent(of: best)
        while let node = parent, tree.name(node) != "body", node != tree.root {
            guard let parentScore = scores[node] else {
                parent = tree.parent(of: node)
                continue
            }
            if parentScore < threshold { break }
            if parentScore > lastScore {
                best = node
                break
            }
            lastScore = parentScore
            parent = tree.parent(of: node)
        }
        // An only child: its parent holds whatever sits beside it.
        while let node = tree.parent(of: best), tree.name(node) != "body", node != tree.root, tree.children(of: node).count == 1 {
            best = node
        }
        if scores[best] == nil { scores[best] = initialScore(best) }
        return best
    }

    /// Moves the top candidate and the siblings that belong with it into a new `div`.
    private mutating func gatherSiblings(of top: Int) -> Int {
        let article = tree.makeElement("div")
        guard let parent = tree.parent(of: top) else {
            tree.append(top, to: article)
            return article
        }
        let topScore = scores[top] ?? 0
        let threshold = max(10, topScore * 0.2)
        let topClass = tree.attribute("class", of: top) ?? ""
        for sibling in tree.children(of: parent) {
            var append = sibling == top
            if !append {
                var bonus = 0.0
                if !topClass.isEmpty, (tree.attribute("class", of: sibling) ?? "") == topClass { bonus += topScore * 0.2 }
                if let score = scores[sibling], score + bonus >= threshold {
                    append = true
                } else if tree.name(sibling) == "p" {
                    let density = tree.linkDensity(sibling)
                    let text = tree.innerText(sibling)
                    let length = tree.textLength(sibling)
                    if length > 80 && density < 0.25 {
                        append = true
                    } else if length < 80 && length > 0 && density == 0 && Self.endsASentence(text) {
                        append = true
                    }
                }
            }
            guard append else { continue }
            if !Self.keptSiblingNames.contains(tree.name(sibling)) { tree.rename(sibling, to: "div") }
            tree.append(sibling, to: article)
        }
        return article
    }

    /// Whether the text holds a full stop followed by a space or the end ("Read more." but not "v1.2").
    static func endsASentence(_ text: String) -> Bool {
        var previousWasPeriod = false
        for character in text {
            if previousWasPeriod && character == " " { return true }
            previousWasPeriod = character == "."
        }
        return previousWasPeriod
    }

    // MARK: - Tests on nodes

    private func isProbablyVisible(_ node: Int) -> Bool {
        if let style = tree.attribute("style", of: node) {
            let compact = String(decoding: style.utf8.filter { !Self.isASCIISpace($0) }, as: UTF8.self)
            if Self.hidingStyles.matches(compact) { return false }
        }
        if tree.attribute("hidden", of: node) != nil { return false }
        if tree.attribute("aria-hidden", of: node) == "true",
           !Self.fallbackImage.matches(tree.attribute("class", of: node) ?? "") {
            return false
        }
        return true
    }

    /// A cookie or consent banner: named for it and short (a story about cookies is longer).
    private func isConsentBanner(_ node: Int, names: String) -> Bool {
        guard names.count > 1, ClassHints.consent.matches(names), !ClassHints.mayBeContent.matches(names) else { return false }
        return tree.textLength(node) < 2000
    }

    private func isByline(_ node: Int, names: String) -> Bool {
        let rel = tree.attribute("rel", of: node)
        let itemprop = tree.attribute("itemprop", of: node) ?? ""
        guard rel == "author" || Self.author.matches(itemprop) || ClassHints.byline.matches(names) else { return false }
        let text = tree.innerText(node)
        return !text.isEmpty && text.utf16.count < 100
    }

    private func hasAncestor(_ node: Int, named name: String, maximumDepth: Int = 3) -> Bool {
        var depth = 0
        var current = node
        while let parent = tree.parent(of: current) {
            if maximumDepth > 0 && depth > maximumDepth { return false }
            if tree.name(parent) == name { return true }
            current = parent
            depth += 1
        }
        return false
    }

    private func ancestors(of node: Int) -> [Int] {
        var result: [Int] = []
        var current = node
        while let parent = tree.parent(of: current) {
            result.append(parent)
            current = parent
        }
        return result
    }

    private func isWithoutContent(_ node: Int) -> Bool {
        guard tree.hasNoText(node) else { return false }
        let children = tree.children(of: node)
        if children.isEmpty { return true }
        let breaks = tree.descendants(of: node, named: ["br", "hr"]).count
        return children.count == breaks
    }

    private func singleChild(of node: Int, named name: String) -> Int? {
        let children = tree.children(of: node)
        guard children.count == 1, tree.name(children[0]) == name else { return nil }
        for child in tree.childNodes(of: node) where tree.isText(child) {
            if let last = tree.text(child).last, !last.isWhitespace { return nil }
        }
        return children[0]
    }

    private func hasBlockDescendant(_ node: Int) -> Bool {
        var found = false
        tree.forEachDescendant(of: node) { descendant in
            if !found, tree.isElement(descendant), Self.blockChildren.contains(tree.name(descendant)) { found = true }
        }
        return found
    }

    func isPhrasing(_ node: Int) -> Bool { tree.isPhrasingContent(node) }

    func isWhitespace(_ node: Int) -> Bool { tree.isWhitespaceNode(node) }

    // MARK: - Walking

    /// The next element in document order, skipping `node`'s subtree when `skippingChildren`.
    private func next(after node: Int, skippingChildren: Bool = false) -> Int? {
        if !skippingChildren, let child = tree.firstElementChild(of: node) { return child }
        if let sibling = tree.nextElementSibling(of: node) { return sibling }
        var current = tree.parent(of: node)
        while let parent = current {
            if let sibling = tree.nextElementSibling(of: parent) { return sibling }
            current = tree.parent(of: parent)
        }
        return nil
    }

    private mutating func removeAndGetNext(_ node: Int) -> Int? {
        let following = next(after: node, skippingChildren: true)
        tree.detach(node)
        return following
    }

    // MARK: - Title similarity

    /// How much of `b`'s words `a` also has: 1 the same words, 0 none (by the length of `b`'s words not in `a`).
    static func similarity(_ a: String, _ b: String) -> Double {
        let wordsA = words(a)
        let wordsB = words(b)
        guard !wordsA.isEmpty, !wordsB.isEmpty else { return 0 }
        let setA = Set(wordsA)
        let unique = wordsB.filter { !setA.contains($0) }
        let uniqueLength = unique.joined(separator: " ").utf16.count
        let totalLength = wordsB.joined(separator: " ").utf16.count
        return 1 - Double(uniqueLength) / Double(totalLength)
    }

    /// Lowercase runs of ASCII letters, digits and `_` (other characters separate words).
    static func words(_ text: String) -> [String] {
        text.lowercased().split { character in
            !(character.isASCII && (character.isLetter || character.isNumber || character == "_"))
        }.map(String.init)
    }
}
