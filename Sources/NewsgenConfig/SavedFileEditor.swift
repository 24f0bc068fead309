public import Foundation
import NewsgenModel
import NewsgenXML

/// Edits saved.json for `newsgen saved`: key and entry order kept, stable formatting, atomic replacement. A file
/// that is not JSON or has an unknown key is not edited; the error says where, as a build would.
public struct SavedFileEditor: Sendable {
    public let file: URL
    /// Entries a build skips (`saved.json: favorites[2]: …; skipped`); edits keep them as they are.
    public let warnings: [ConfigError]
    private var document: JSONNode

    /// What an edit did, for the message the command prints.
    public enum Outcome: Sendable, Equatable {
        case added
        case updated
        case alreadyThere
        case removed(from: [SavedListKind])
        case notFound
    }

    /// Opens a saved file; one that does not exist yet is an empty document.
    public init(file: URL) throws(ConfigError) {
        self.file = file
        guard FileManager.default.fileExists(atPath: file.path) else {
            document = .object([])
            warnings = []
            return
        }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ConfigError(file: file.path, keyPath: "", message: "cannot be read (\(FileProblem.describe(error)))")
        }
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            document = .object([])
            warnings = []
            return
        }
        // One parse for both the contract checks and the edit.
        let source = ConfigDocument(file: file.path, data: data)
        document = try source.parse()
        warnings = try SavedFile.reading(document, in: source).warnings
    }

    /// Adds a URL to a list, or gives an existing entry a title.
    public mutating func add(url: String, to kind: SavedListKind, title: String?, at date: Date) -> Outcome {
        var entries = list(kind)
        let key = SavedEntry(url: url).key
        if let index = entries.firstIndex(where: { entryKey($0) == key }) {
            guard let title, entries[index]["title"]?.string != title else { return .alreadyThere }
            entries[index].set("title", .string(title))
            setList(kind, entries)
            return .updated
        }
        var entry = JSONNode.object([("url", .string(url))])
        if let title { entry.set("title", .string(title)) }
        entry.set("savedAt", .string(Dates.rfc3339(date)))
        entries.append(entry)
        setList(kind, entries)
        return .added
    }

    /// Removes a URL from the given lists.
    public mutating func remove(url: String, from kinds: [SavedListKind]) -> Outcome {
        let key = SavedEntry(url: url).key
        var removedFrom: [SavedListKind] = []
        for kind in kinds {
            let entries = list(kind)
            let kept = entries.filter { entryKey($0) != key }
            if kept.count != entries.count {
                setList(kind, kept)
                removedFrom.append(kind)
            }
        }
        return removedFrom.isEmpty ? .notFound : .removed(from: removedFrom)
    }

    /// Writes the file atomically (temporary file, then rename). The folder must exist: a mistyped path is an error.
    public func save() throws(ConfigError) {
        let folder = file.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ConfigError(file: file.path, keyPath: "", message: "cannot be written: the folder \(folder.path) does not exist (create it first, or choose another file)")
        }
        do {
            try Data(document.formatted().utf8).write(to: file, options: .atomic)
        } catch {
            throw ConfigError(file: file.path, keyPath: "", message: "cannot be written (\(FileProblem.describe(error)))")
        }
    }

    private func list(_ kind: SavedListKind) -> [JSONNode] {
        document[kind.key]?.array ?? []
    }

    private mutating func setList(_ kind: SavedListKind, _ entries: [JSONNode]) {
        document.set(kind.key, .array(entries))
    }

    private func entryKey(_ entry: JSONNode) -> String {
        SavedEntry(url: entry["url"]?.string, id: entry["id"]?.string).key
    }
}
