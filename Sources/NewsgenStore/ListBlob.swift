import Foundation

/// A source's list as the cache keeps it beside its rows (the table `listBlob`, since
/// v6-listBlob): the columns of each listed `article` row, in the list's order, in one value.
///
/// A cron run reads the lists of the sources served from the cache (a hundred sources, ten
/// thousand stories): joined row by row on their keys, that read was about 7 % of a new-story
/// build's CPU. A list is written with its rows, in the same transaction, from the values bound
/// to them (what SQLite stores: a text up to its first NUL, a NaN time as NULL); triggers drop
/// it whenever one of them could differ (`SQLiteStore.migrator`), so a list read from here is
/// the list its rows give. Decoded into the same records as rows are, so a story read from here
/// is the story its row gives.
///
/// The format: a version byte, the story count, then each story's rowid and columns. Integers
/// are little-endian; a text is its UTF-8 length (4 bytes) and bytes, an absent one the length
/// `absent`; a time is a presence byte and the 8 bytes of its seconds since 1970 as stored.
/// Anything that does not read as that (another version, a value cut short, bytes left over)
/// is no list at all: the list is read from its rows.
enum ListBlob {
    static let version: UInt8 = 1
    private static let absent = UInt32.max

    /// One listed row, its columns as `article` holds them.
    struct Story: Equatable {
        var rowid: Int64
        var key: String
        var sourceID: String
        var title: String
        var summary: String
        var author: String?
        var url: String?
        var imageURL: String?
        var published: Double?
        var categories: String
        var guid: String?
        var firstSeen: Double
        var content: String?
        var outlet: String?
        var digest: Data?
    }

    static func encode(_ stories: [Story]) -> Data {
        var writer = Writer()
        writer.bytes.reserveCapacity(stories.reduce(16) { $0 + 64 + $1.title.utf8.count + $1.summary.utf8.count + ($1.content?.utf8.count ?? 0) + 256 })
        writer.bytes.append(version)
        writer.integer(UInt32(stories.count))
        for story in stories {
            writer.integer(UInt64(bitPattern: story.rowid))
            writer.text(story.key)
            writer.text(story.sourceID)
            writer.text(story.title)
            writer.text(story.summary)
            writer.text(story.author)
            writer.text(story.url)
            writer.text(story.imageURL)
            writer.time(story.published)
            writer.text(story.categories)
            writer.text(story.guid)
            writer.time(story.firstSeen)
            writer.text(story.content)
            writer.text(story.outlet)
            writer.data(story.digest)
        }
        return Data(writer.bytes)
    }

    /// The stories of a list, or `nil` when `data` is not a list this version wrote.
    static func decode(_ data: Data) -> [Story]? {
        data.withUnsafeBytes { buffer -> [Story]? in
            var reader = Reader(buffer: buffer)
            guard reader.byte() == version, let count = reader.integer(UInt32.self) else { return nil }
            // Each story takes at least 50 bytes: a count beyond what the bytes hold is not a list.
            guard Int(count) <= buffer.count / 50 else { return nil }
            var stories: [Story] = []
            stories.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let rowid = reader.integer(UInt64.self), let key = reader.text(), let sourceID = reader.text(),
                      let title = reader.text(), let summary = reader.text(), let author = reader.optionalText(),
                      let url = reader.optionalText(), let imageURL = reader.optionalText(), let published = reader.optionalTime(),
                      let categories = reader.text(), let guid = reader.optionalText(), let firstSeen = reader.optionalTime(),
                      let firstSeenTime = firstSeen, let content = reader.optionalText(), let outlet = reader.optionalText(),
                      let digest = reader.optionalData()
                else { return nil }
                stories.append(Story(rowid: Int64(bitPattern: rowid), key: key, sourceID: sourceID, title: title, summary: summary,
                                     author: author, url: url, imageURL: imageURL, published: published, categories: categories,
                                     guid: guid, firstSeen: firstSeenTime, content: content, outlet: outlet, digest: digest))
            }
            return reader.isAtEnd ? stories : nil
        }
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func integer<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        /// A text as its column holds it: up to its first NUL, where SQLite's binding of a C
        /// string ends it.
        mutating func text(_ value: String?) {
            guard var value else { return integer(absent) }
            value.withUTF8 { utf8 in
                guard let base = utf8.baseAddress else { return integer(UInt32(0)) }
                let end = memchr(base, 0, utf8.count).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? utf8.count
                integer(UInt32(end))
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<end]))
            }
        }

        /// A time as its column holds it: SQLite stores a NaN as NULL.
        mutating func time(_ value: Double?) {
            guard let value, !value.isNaN else { return bytes.append(0) }
            bytes.append(1)
            integer(value.bitPattern)
        }

        mutating func data(_ value: Data?) {
            guard let value else { return integer(absent) }
            integer(UInt32(value.count))
            bytes.append(contentsOf: value)
        }
    }

    /// Reads what `Writer` wrote; every read is `nil` past the end or on a value that cannot be.
    /// A wrapped present value is a read that worked (`.some(nil)`: an absent value).
    private struct Reader {
        let buffer: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == buffer.count }

        mutating func byte() -> UInt8? {
            guard offset < buffer.count else { return nil }
            defer { offset += 1 }
            return buffer[offset]
        }

        mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            let size = MemoryLayout<T>.size
            guard buffer.count - offset >= size else { return nil }
            defer { offset += size }
            return T(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: T.self))
        }

        /// The bytes of a value whose length comes first; `.some(nil)` for an absent one.
        private mutating func span() -> UnsafeRawBufferPointer?? {
            guard let length = integer(UInt32.self) else { return nil }
            if length == ListBlob.absent { return .some(nil) }
            guard buffer.count - offset >= Int(length) else { return nil }
            defer { offset += Int(length) }
            return .some(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + Int(length)]))
        }

        /// Text as the rows' text is read: bytes that are not UTF-8 are repaired, not refused.
        mutating func text() -> String? {
            guard case .some(.some(let bytes)) = span() else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }

        mutating func optionalText() -> String?? {
            guard let span = span() else { return nil }
            guard let bytes = span else { return .some(nil) }
            return .some(String(decoding: bytes, as: UTF8.self))
        }

        mutating func optionalData() -> Data?? {
            guard let span = span() else { return nil }
            return .some(span.map { Data($0) })
        }

        mutating func optionalTime() -> Double?? {
            switch byte() {
            case 0: return .some(nil)
            case 1: return integer(UInt64.self).map { .some(Double(bitPattern: $0)) }
            default: return nil
            }
        }
    }
}
