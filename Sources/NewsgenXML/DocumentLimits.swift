import Foundation

/// What reading one untrusted document (a feed, or an HTML fragment in it) may cost. Each cap is checked before
/// or during the work it bounds, so a hostile document costs about what a legitimate one of its size does:
/// - start tags: at most `elements` (JSON: values), and `attributesPerElement` per tag (libxml2 compares each
///   attribute of a tag with every other);
/// - entity text: references to the document's own DTD entities expand to at most `expansion(forDocumentOf:)`
///   bytes in all (a few hundred bytes of declarations can otherwise stand for gigabytes);
/// - time: reading stops at `deadline` or on cancellation.
/// Depth is libxml2's cap (256; `XML_PARSE_HUGE` is never passed); byte size is the fetcher's `maximumBytes`.
package struct DocumentLimits: Sendable {
    package var elements: Int
    package var attributesPerElement: Int
    /// Entity text allowed: the document's own size, clamped to `expansionFloor...expansionCeiling`.
    package var expansionFloor: Int
    package var expansionCeiling: Int
    /// When reading must stop; `nil` for no deadline (cancellation still stops it).
    package var deadline: ContinuousClock.Instant?
    /// The time allowed, for the sentence that says it ran out.
    package var seconds: Double?

    package init(elements: Int = 200_000, attributesPerElement: Int = 1_000,
                 expansionFloor: Int = 1 << 20, expansionCeiling: Int = 16 << 20,
                 deadline: ContinuousClock.Instant? = nil, seconds: Double? = nil) {
        self.elements = elements
        self.attributesPerElement = attributesPerElement
        self.expansionFloor = expansionFloor
        self.expansionCeiling = expansionCeiling
        self.deadline = deadline
        self.seconds = seconds
    }

    /// The standard caps with no deadline.
    package static let standard = DocumentLimits()

    /// The standard caps, with reading to end `seconds` from now.
    package static func within(seconds: Double) -> DocumentLimits {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64((seconds * 1000).rounded())))
        return DocumentLimits(deadline: deadline, seconds: seconds)
    }

    /// The bytes of entity text a document of `size` bytes may expand to.
    package func expansion(forDocumentOf size: Int) -> Int {
        min(expansionCeiling, max(expansionFloor, size))
    }

    /// Throws once the deadline has passed or the task is cancelled (a stopped build or a source over budget).
    package func checkTime() throws(DocumentLimitError) {
        if Task.isCancelled { throw .stopped }
        if let deadline, ContinuousClock.now >= deadline { throw .timedOut(seconds: seconds) }
    }

    /// Counts start tags and attributes per tag in one pass, before libxml2 reads the bytes. Markup inside comments
    /// and CDATA counts too (that HTML gets parsed in turn), so the counts are never below what libxml2 makes,
    /// strict or recovering.
    package func checkMarkup(_ bytes: UnsafeRawBufferPointer) throws(DocumentLimitError) {
        if let problem = markupProblem(bytes) { throw problem }
    }

    /// `checkMarkup(_:)` of an array of bytes.
    package func checkMarkup(_ bytes: [UInt8]) throws(DocumentLimitError) {
        if let problem = bytes.withUnsafeBytes({ markupProblem($0) }) { throw problem }
    }

    private func markupProblem(_ bytes: UnsafeRawBufferPointer) -> DocumentLimitError? {
        var elements = 0
        var attributes = 0
        var inTag = false
        var quote: UInt8 = 0
        var afterSpace = false
        var afterEquals = false
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "<") {
                quote = 0
                inTag = index < count && Self.startsName(bytes[index])
                guard inTag else { continue }
                elements += 1
                if elements > self.elements { return .tooManyElements(limit: self.elements) }
                attributes = 0
                afterSpace = false
                afterEquals = false
                index += 1
                continue
            }
            if quote != 0 {
                if byte == quote { quote = 0 }
                continue
            }
            guard inTag else { continue }
            switch byte {
            case UInt8(ascii: ">"):
                inTag = false
            case UInt8(ascii: "="):
                afterEquals = true
                afterSpace = false
            case UInt8(ascii: "\"") where afterEquals, UInt8(ascii: "'") where afterEquals:
                quote = byte
                afterEquals = false
            case 0x20, 0x09, 0x0A, 0x0D:
                afterSpace = true
            default:
                if afterSpace, !afterEquals, Self.startsName(byte) {
                    attributes += 1
                    if attributes > attributesPerElement { return .tooManyAttributes(limit: attributesPerElement) }
                }
                afterSpace = false
                afterEquals = false
            }
        }
        return nil
    }

    /// A byte that may start an XML or HTML name: a letter, `_`, `:`, or any byte of a multi-byte UTF-8 character.
    private static func startsName(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte >= 0x80
    }
}

/// Why a document was not read: it went over one of its `DocumentLimits`.
package enum DocumentLimitError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooManyElements(limit: Int)
    case tooManyAttributes(limit: Int)
    /// A JSON document of more values (`elements` is their limit too).
    case tooManyValues(limit: Int)
    /// The entities the document declares expand beyond `limit` bytes.
    case entityExpansion(limit: Int)
    /// Reading took longer than the time allowed (`nil` when not known).
    case timedOut(seconds: Double?)
    /// The task was cancelled while reading.
    case stopped

    package var description: String {
        switch self {
        case .tooManyElements(let limit):
            "more than \(Self.count(limit)) elements; newsgen reads no more"
        case .tooManyAttributes(let limit):
            "an element with more than \(Self.count(limit)) attributes"
        case .tooManyValues(let limit):
            "more than \(Self.count(limit)) JSON values; newsgen reads no more"
        case .entityExpansion(let limit):
            "entity expansion beyond \(Self.megabytes(limit)) (the entities its DTD declares stand for more text than newsgen expands)"
        case .timedOut(let seconds?):
            "reading it took longer than \(Self.seconds(seconds)), the source's timeout"
        case .timedOut(nil):
            "reading it took longer than allowed"
        case .stopped:
            "reading it was stopped"
        }
    }

    private static func count(_ value: Int) -> String {
        value.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    }

    private static func megabytes(_ bytes: Int) -> String {
        let value = Double(bytes) / 1_048_576
        return value == value.rounded() ? "\(Int(value)) MB" : String(format: "%.1f MB", value)
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
