import NewsgenXML

/// Removes what is left around the story once it is found: forms, embeds, asides and footers, share bars, headings
/// weighted as page furniture, and (under `cleanConditionally`) lists, tables and divs that look like navigation,
/// link lists or widgets rather than prose. Data tables and what is inside them stay.
struct ContentCleaner {
    var tree: HTMLTree
    let rules: ContentFinder.Rules
    private var dataTables: Set<Int> = []

    init(tree: HTMLTree, rules: ContentFinder.Rules) {
        self.tree = tree
        self.rules = rules
    }

    static let alwaysRemoved: Set<String> = [
        "object", "embed", "footer", "link", "aside", "iframe", "input", "textarea", "select", "button", "nav",
        "svg", "canvas", "template", "dialog", "menu",
    ]
    static let adWords: Set<String> = ["ad", "advertising", "advertisement", "pub", "publicité", "werb", "werbung", "广告", "реклама", "anuncio"]
    static let loadingWords: Set<String> = ["loading", "正在加载", "загрузка", "chargement", "cargando"]

    mutating func clean(_ article: Int) {
        markDataTables(in: article)
        cleanConditionally(article, "form")
        cleanConditionally(article, "fieldset")
        for node in tree.descendants(of: article, named: ["object", "embed", "footer", "link", "aside"]) { tree.detach(node) }
        removeShareElements(article)
        for node in tree.descendants(of: article, named: Self.alwaysRemoved) { tree.detach(node) }
        for heading in tree.descendants(of: article, named: ["h1", "h2"]) where classWeight(heading) < 0 { tree.detach(heading) }
        cleanConditionally(article, "table")
        cleanConditionally(article, "ul")
        cleanConditionally(article, "div")
        for heading in tree.descendants(of: article, named: ["h1"]) { tree.rename(heading, to: "h2") }
        for paragraph in tree.descendants(of: article, named: ["p"]).reversed() {
            if tree.descendants(of: paragraph, named: ["img", "embed", "object", "iframe"]).isEmpty, tree.hasNoText(paragraph) {
                tree.detach(paragraph)
            }
        }
        for lineBreak in tree.descendants(of: article, named: ["br"]) {
            var next = tree.nextNode(lineBreak)
            while next != HTMLTree.none, tree.isText(next), HTMLTree.isBlank(tree.text(next)) { next = tree.nextNode(next) }
            if next != HTMLTree.none, tree.name(next) == "p" { tree.detach(lineBreak) }
        }
        unwrapSingleCellTables(article)
    }

    private func classWeight(_ node: Int) -> Int {
        guard rules.contains(.weightClasses) else { return 0 }
        return ClassHints.weight(of: tree.attribute("class", of: node) ?? "") + ClassHints.weight(of: tree.attribute("id", of: node) ?? "")
    }

    /// Share bars inside the story's parts (the parts themselves stay, whatever their names).
    private mutating func removeShareElements(_ article: Int) {
        for part in tree.children(of: article) {
            for node in tree.descendants(of: part) where tree.isInside(node, part) {
                let names = tree.classAndID(node)
                if ClassHints.isShareElement(names), tree.textContent(of: node).utf16.count < 500 {
                    tree.detach(node)
                }
            }
        }
    }

    private mutating func unwrapSingleCellTables(_ article: Int) {
        for table in tree.descendants(of: article, named: ["table"]) {
            var body = table
            if let only = onlyChild(of: table, named: "tbody") { body = only }
            guard let row = onlyChild(of: body, named: "tr"), let cell = onlyChild(of: row, named: "td") else { continue }
            let allPhrasing = tree.childNodes(of: cell).allSatisfy(tree.isPhrasingContent)
            tree.rename(cell, to: allPhrasing ? "p" : "div")
            tree.replace(table, with: cell)
        }
    }

    private func onlyChild(of node: Int, named name: String) -> Int? {
        let children = tree.children(of: node)
        guard children.count == 1, tree.name(children[0]) == name else { return nil }
        for child in tree.childNodes(of: node) where tree.isText(child) {
            if let last = tree.text(child).last, !last.isWhitespace { return nil }
        }
        return children[0]
    }

    // MARK: - Data tables

    /// Tables of data (headers, captions, many cells) as opposed to tables used for layout.
    private mutating func markDataTables(in article: Int) {
        for table in tree.descendants(of: article, named: ["table"]) where isDataTable(table) {
            dataTables.insert(table)
        }
    }

    private func isDataTable(_ table: Int) -> Bool {
        if tree.attribute("role", of: table) == "presentation" { return false }
        if tree.attribute("datatable", of: table) == "0" { return false }
        if tree.attribute("summary", of: table).map({ !$0.isEmpty }) == true { return true }
        if let caption = tree.descendants(of: table, named: ["caption"]).first, tree.firstChild(caption) != HTMLTree.none { return true }
        if !tree.descendants(of: table, named: ["col", "colgroup", "tfoot", "thead", "th"]).isEmpty { return true }
        if !tree.descendants(of: table, named: ["table"]).isEmpty { return false }
        var rows = 0
        var columns = 0
        for row in tree.descendants(of: table, named: ["tr"]) {
            rows += Int(tree.attribute("rowspan", of: row) ?? "").map { max($0, 1) } ?? 1
            var inRow = 0
            for cell in tree.descendants(of: row, named: ["td"]) {
                inRow += Int(tree.attribute("colspan", of: cell) ?? "").map { max($0, 1) } ?? 1
            }
            columns = max(columns, inRow)
        }
        if rows == 1 || columns == 1 { return false }
        if rows >= 10 || columns > 4 { return true }
        return rows * columns > 10
    }

    // MARK: - Conditional cleaning

    /// Removes each `name` element below `root` that looks like furniture rather than content.
    private mutating func cleanConditionally(_ root: Int, _ name: String) {
        guard rules.contains(.cleanConditionally) else { return }
        for node in tree.descendants(of: root, named: [name]).reversed() where shouldRemove(node, name) {
            tree.detach(node)
        }
    }

    private func hasAncestor(_ node: Int, where predicate: (Int) -> Bool, maximumDepth: Int) -> Bool {
        var depth = 0
        var current = node
        while let parent = tree.parent(of: current) {
            if maximumDepth > 0 && depth > maximumDepth { return false }
            if predicate(parent) { return true }
            current = parent
            depth += 1
        }
        return false
    }

    private func shouldRemove(_ node: Int, _ name: String) -> Bool {
        let measure = tree.measure(node)
        var isList = name == "ul" || name == "ol"
        if !isList {
            let listLength = tree.descendants(of: node, named: ["ul", "ol"]).reduce(0) { $0 + tree.textLength($1) }
            isList = measure.length > 0 && Double(listLength) / Double(measure.length) > 0.9
        }
        if name == "table" && dataTables.contains(node) { return false }
        if hasAncestor(node, where: { dataTables.contains($0) }, maximumDepth: -1) { return false }
        if hasAncestor(node, where: { tree.name($0) == "code" }, maximumDepth: 3) { return false }
        if tree.descendants(of: node, named: ["table"]).contains(where: dataTables.contains) { return false }

        let weight = classWeight(node)
        if weight < 0 { return true }
        guard measure.asciiCommas < 10 else { return false }

        var paragraphs = 0, images = 0, listItems = -100, inputs = 0, embeds = 0
        var headingLength = 0, textishLength = 0
        var textish = false
        tree.forEachDescendant(of: node) { descendant in
            guard tree.isElement(descendant) else { return }
            switch tree.name(descendant) {
            case "p": paragraphs += 1; textish = true
            case "img": images += 1; textish = true
            case "li": listItems += 1; textish = true
            case "input": inputs += 1
            case "object", "embed", "iframe": embeds += 1
            case "h1", "h2", "h3", "h4", "h5", "h6": headingLength += tree.textLength(descendant)
            case "span", "td", "blockquote", "dl", "div", "ol", "pre", "table", "ul": textish = true
            default: break
            }
            if textish {
                textishLength += tree.textLength(descendant)
                textish = false
            }
        }
        // A block saying only "Advertisement" or "Loading…".
        if measure.length <= 20 {
            let innerText = tree.innerText(node).lowercased()
            if Self.adWords.contains(innerText) || Self.loadingWords.contains(innerText.trimmingSuffix("…").trimmingSuffix("...")) {
                return true
            }
        }
        let length = measure.length
        let linkDensity = tree.linkDensity(node)
        let headingDensity = length == 0 ? 0 : Double(headingLength) / Double(length)
        let textDensity = length == 0 ? 0 : Double(textishLength) / Double(length)
        let inFigure = hasAncestor(node, where: { tree.name($0) == "figure" }, maximumDepth: 3)

        var remove = false
        if !inFigure && images > 1 && Double(paragraphs) / Double(images) < 0.5 { remove = true }
        if !isList && listItems > paragraphs { remove = true }
        if inputs > paragraphs / 3 { remove = true }
        if !isList && !inFigure && headingDensity < 0.9 && length < 25 && (images == 0 || images > 2) && linkDensity > 0 { remove = true }
        if !isList && weight < 25 && linkDensity > 0.2 { remove = true }
        if weight >= 25 && linkDensity > 0.5 { remove = true }
        if (embeds == 1 && length < 75) || embeds > 1 { remove = true }
        if images == 0 && textDensity == 0 { remove = true }

        // A list of images (each item one image) stays.
        if isList && remove {
            for child in tree.children(of: node) where tree.children(of: child).count > 1 { return true }
            if images == tree.descendants(of: node, named: ["li"]).count { return false }
        }
        return remove
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
