public import Foundation
public import NewsgenModel
import NewsgenXML

/// Adds a source to site.json for `newsgen add`, changing nothing else. Rather than reformatting the file, the
/// entry is inserted into its bytes after the last source, written like that source (layout, indentation, key
/// order). The result must load as a configuration before it is written, atomically.
public struct SiteFileEditor: Sendable {
    public let file: URL
    /// The configuration as the file holds it now.
    public let config: SiteConfig
    private let data: Data
    private let root: JSONNode

    /// One source to add: a feed with its id, and optionally a name and a category.
    public struct NewSource: Sendable, Equatable {
        public var id: String
        public var name: String?
        public var category: String?
        public var feed: String

        public init(id: String, name: String? = nil, category: String? = nil, feed: String) {
            self.id = id
            self.name = name
            self.category = category
            self.feed = feed
        }

        /// The members in newsgen's order; a template's order wins where it names them.
        fileprivate var members: [(key: String, value: String)] {
            [("id", id), ("name", name), ("category", category), ("feed", feed)].compactMap { key, value in
                value.map { (key, $0) }
            }
        }
    }

    /// Opens a site.json that loads as it is (a broken one is not edited: the error says why). Errors name the file
    /// as `displayPath` (the path as the user gave it), else by its absolute path.
    public init(file: URL, displayPath: String? = nil) throws(ConfigError) {
        let display = displayPath ?? file.path
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ConfigError(file: display, keyPath: "", message: "cannot be read (\(FileProblem.describe(error)))")
        }
        self.file = file
        self.data = data
        config = try SiteConfig.decode(data, file: file, displayPath: display)
        root = try ConfigDocument(file: display, data: data).parse()
    }

    /// The index in `sources` of the source with this id.
    public func index(ofID id: String) -> Int? {
        config.sources.firstIndex { $0.id == id }
    }

    /// The source already reading `url` (feed or JSON, compared as normalized URLs).
    public func source(reading url: URL) -> SourceConfig? {
        guard let wanted = URLNormalizer.normalize(url.absoluteString) else { return nil }
        return config.sources.first { source in
            switch source.kind {
            case .feed(.remote(let configured)), .json(.remote(let configured)):
                URLNormalizer.normalize(configured.absoluteString) == wanted
            default:
                false
            }
        }
    }

    /// An id like `id` that no source has: `id` itself, else `id-2`, `id-3`, …
    public func freeID(like id: String) -> String {
        let taken = Set(config.sources.map(\.id))
        guard taken.contains(id) else { return id }
        for number in 2... {
            let suffix = "-\(number)"
            let candidate = String(id.prefix(64 - suffix.count)) + suffix
            if !taken.contains(candidate) { return candidate }
        }
        return id
    }

    /// The entry's text as it would be inserted, without its separator.
    public func entryText(for source: NewSource) -> String {
        let members = orderedMembers(source).map { "\(JSONNode.quoted($0.key)): \(JSONNode.quoted($0.value))" }
        let template = templateRange.map(slice) ?? "{ }"
        guard template.utf8.contains(0x0A) else {
            // One line, with a space inside the braces when the template has one.
            let padding = template.dropFirst().first == " " ? " " : ""
            return "{" + padding + members.joined(separator: ", ") + padding + "}"
        }
        // Several lines: members at the template's inner indentation, `}` at its own.
        let newline = template.utf8.contains(0x0D) ? "\r\n" : "\n"
        let lines = template.components(separatedBy: newline)
        let inner = lines.dropFirst().first.map { String($0.prefix { $0 == " " || $0 == "\t" }) } ?? "  "
        let closing = lines.last.map { String($0.prefix { $0 == " " || $0 == "\t" }) } ?? ""
        return "{" + newline + members.map { inner + $0 }.joined(separator: "," + newline) + newline + closing + "}"
    }

    /// The file with `source` added after the last source, checked to load (new source valid, id unique).
    public func adding(_ source: NewSource) throws(ConfigError) -> Data {
        guard let sources = root["sources"], case .array(let elements) = sources.value,
              let close = Self.valueEnd(in: data, from: sources.offset).map({ $0 - 1 }) else {
            throw ConfigError(file: config.displayPath, keyPath: "sources", message: "expected an array of sources")
        }
        let entry = entryText(for: source)
        var edited = data
        if let last = elements.last, let lastEnd = Self.valueEnd(in: data, from: last.offset) {
            let separator: String
            if elements.count >= 2, let previousEnd = Self.valueEnd(in: data, from: elements[elements.count - 2].offset) {
                separator = slice(previousEnd..<last.offset)
            } else {
                let space = slice((sources.offset + 1)..<last.offset)
                separator = "," + (space.isEmpty ? " " : space)
            }
            edited.replaceSubrange(lastEnd..<lastEnd, with: Data((separator + entry).utf8))
        } else {
            // An empty list: the entry on its own line, one step deeper than `[`'s line.
            let lineStart = data[..<sources.offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            let indent = String(decoding: data[lineStart..<sources.offset].prefix { $0 == 0x20 || $0 == 0x09 }, as: UTF8.self)
            let newline = data.contains(0x0D) ? "\r\n" : "\n"
            let body = newline + indent + "  " + entry + newline + indent
            edited.replaceSubrange((sources.offset + 1)..<close, with: Data(body.utf8))
        }
        _ = try SiteConfig.decode(edited, file: file, displayPath: config.displayPath)
        return edited
    }

    /// Writes `bytes` from `adding` atomically (temporary file in the same folder, then rename).
    public func save(_ bytes: Data) throws(ConfigError) {
        do {
            try bytes.write(to: file, options: .atomic)
        } catch {
            throw ConfigError(file: file.path, keyPath: "", message: "cannot be written (\(FileProblem.describe(error)))")
        }
    }

    // MARK: - The file's own text

    /// The last source that is an object: the entry the new one is written like.
    private var templateRange: Range<Int>? {
        guard let last = root["sources"]?.array?.last(where: { $0.members != nil }),
              let end = Self.valueEnd(in: data, from: last.offset) else { return nil }
        return last.offset..<end
    }

    /// The members in the template's key order; keys it does not have keep newsgen's order, after them.
    private func orderedMembers(_ source: NewSource) -> [(key: String, value: String)] {
        let order = root["sources"]?.array?.last(where: { $0.members != nil })?.members?.map(\.key) ?? []
        let members = source.members
        return members.enumerated().sorted { left, right in
            let a = order.firstIndex(of: left.element.key) ?? order.count + left.offset
            let b = order.firstIndex(of: right.element.key) ?? order.count + right.offset
            return a != b ? a < b : left.offset < right.offset
        }.map(\.element)
    }

    private func slice(_ range: Range<Int>) -> String {
        String(decoding: data[range], as: UTF8.self)
    }

    /// The offset just past the JSON value starting at `start` (the document is already parsed, so it is balanced).
    static func valueEnd(in data: Data, from start: Int) -> Int? {
        guard start < data.count else { return nil }
        var index = start
        var depth = 0
        var inString = false
        while index < data.count {
            let byte = data[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index + 1 }
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                    if depth < 0 { return index }
                case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                    if depth == 0 { return index }
                default:
                    break
                }
            }
            index += 1
        }
        return depth == 0 ? index : nil
    }
}
