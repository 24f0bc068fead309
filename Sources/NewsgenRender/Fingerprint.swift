package import Foundation
package import NewsgenModel
import Crypto

/// A SHA-256 digest that names what a file of the site was made from, or its bytes. Equal to the one recorded at publish
/// means the published file is what rendering would give, so it is carried over. A page's fingerprint covers everything
/// its bytes depend on: newsgen's version, the theme, the template's name and its values. `hex` spells it for the manifest.
package struct Fingerprint: Hashable, Sendable, CustomStringConvertible {
    private var first: UInt64
    private var second: UInt64
    private var third: UInt64
    private var fourth: UInt64

    private init(digest: SHA256.Digest) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            let words = raw.bindMemory(to: UInt64.self)
            digest.withUnsafeBytes { bytes in
                for (index, byte) in bytes.prefix(32).enumerated() {
                    words[index / 8] = words[index / 8] << 8 | UInt64(byte)
                }
            }
        }
        (first, second, third, fourth) = words
    }

    /// The fingerprint spelled `hex` (64 lowercase hexadecimal digits); `nil` for anything else.
    package init?(hex: UnsafeBufferPointer<UInt8>) {
        guard hex.count == 64, let digits = hex.baseAddress else { return nil }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var invalid: UInt8 = 0
        withUnsafeMutableBytes(of: &words) { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for word in 0..<4 {
                var value: UInt64 = 0
                for index in word * 16..<word * 16 + 16 {
                    let nibble = Self.nibbles[Int(digits[index])]
                    invalid |= nibble
                    value = value << 4 | UInt64(nibble & 0x0f)
                }
                words[word] = value
            }
        }
        // A byte that is not a lowercase hexadecimal digit has the high bit of its entry set.
        guard invalid & 0x80 == 0 else { return nil }
        (first, second, third, fourth) = words
    }

    /// Each byte's value as a lowercase hexadecimal digit, or 0x80 for any other byte.
    private static let nibbles: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        default: 0x80
        }
    }

    /// The fingerprint spelled `hex`; `nil` unless it is 64 lowercase hexadecimal digits.
    package init?(hex: String) {
        var hex = hex
        guard let fingerprint = hex.withUTF8({ Fingerprint(hex: $0) }) else { return nil }
        self = fingerprint
    }

    var words: SIMD4<UInt64> { SIMD4(first, second, third, fourth) }

    package var hex: String {
        var bytes: [UInt8] = []
        appendHex(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    package func appendHex(to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 64))
        bytes.withUnsafeMutableBufferPointer { buffer in
            Hexadecimal.write(first, into: buffer, at: start)
            Hexadecimal.write(second, into: buffer, at: start + 16)
            Hexadecimal.write(third, into: buffer, at: start + 32)
            Hexadecimal.write(fourth, into: buffer, at: start + 48)
        }
    }

    package var description: String { hex }

    package static func of(_ data: Data) -> Fingerprint {
        var hasher = Hasher()
        hasher.add(data)
        return hasher.finish()
    }

    /// Feeds values into one SHA-256, each with a tag and its length, so different sequences of values can never produce
    /// the same stream of bytes.
    package struct Hasher {
        private var sha = SHA256()
        private var pending = Pending()
        private var pendingCount = 0

        /// 256 bytes held in the value, so copying a hasher (a base fed once, finished by each page) allocates nothing.
        private struct Pending {
            static let capacity = 256
            var bytes: (SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>, SIMD64<UInt8>) = (.zero, .zero, .zero, .zero)
        }

        package init() {}

        private mutating func feed(_ bytes: UnsafeRawBufferPointer) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            if pendingCount + bytes.count > Pending.capacity {
                flush()
                if bytes.count >= Pending.capacity {
                    sha.update(bufferPointer: bytes)
                    return
                }
            }
            let offset = pendingCount
            withUnsafeMutableBytes(of: &pending.bytes) { buffer in
                buffer.baseAddress?.advanced(by: offset).copyMemory(from: source, byteCount: bytes.count)
            }
            pendingCount += bytes.count
        }

        private mutating func flush() {
            guard pendingCount > 0 else { return }
            let count = pendingCount
            withUnsafeBytes(of: pending.bytes) { buffer in
                sha.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
            pendingCount = 0
        }

        private func finalized() -> SHA256.Digest {
            var all = self
            all.flush()
            return all.sha.finalize()
        }

        package mutating func add(_ data: Data) {
            tag("d", count: data.count)
            data.withUnsafeBytes { feed($0) }
        }

        package mutating func add(_ string: String) {
            var string = string
            string.withUTF8 { bytes in
                tag("s", count: bytes.count)
                feed(UnsafeRawBufferPointer(bytes))
            }
        }

        /// An optional string: `nil` is fed as a value of its own, never as "".
        package mutating func add(_ string: String?) {
            if let string { add(string) } else { tag("n", count: 0) }
        }

        package mutating func add(_ bool: Bool) {
            tag(bool ? "T" : "F", count: 0)
        }

        package mutating func add(_ number: Int) {
            tag("i", count: 0)
            withUnsafeBytes(of: Int64(number).littleEndian) { feed($0) }
        }

        /// A list of strings, with its length.
        package mutating func add(_ strings: [String]) {
            tag("a", count: strings.count)
            for string in strings { add(string) }
        }

        /// A value given to a template; dictionary keys in sorted order, so the digest does not depend on their order.
        package mutating func add(templateValue value: Any) {
            switch value {
            case let value as TemplateValue:
                add(value)
            case let string as String:
                add(string)
            case let bool as Bool:
                add(bool)
            case let number as Int:
                add(number)
            case let array as [Any]:
                tag("a", count: array.count)
                for element in array { add(templateValue: element) }
            case let dictionary as [String: Any]:
                tag("o", count: dictionary.count)
                for key in dictionary.keys.sorted() {
                    add(key)
                    add(templateValue: dictionary[key] as Any)
                }
            default:
                // Not a kind TemplateValues produces; its description still tells values apart.
                add("?" + String(describing: value))
            }
        }

        /// A converted template value: an object's names in declaration order (stable), without its `.null` values.
        mutating func add(_ value: TemplateValue) {
            switch value {
            case .string(let string):
                add(string)
            case .bool(let bool):
                tag(bool ? "T" : "F", count: 0)
            case .int(let number):
                tag("i", count: 0)
                withUnsafeBytes(of: Int64(number).littleEndian) { feed($0) }
            case .list(let items):
                tag("a", count: items.count)
                for item in items { add(item) }
            case .lazyList(let list):
                tag("l", count: list.count)
                list.feed(&self)
            case .object(let object):
                var present = 0
                for value in object.values {
                    if case .null = value { continue }
                    present += 1
                }
                tag("o", count: present)
                for (name, value) in zip(object.names, object.values) {
                    if case .null = value { continue }
                    add(name)
                    add(value)
                }
            case .null:
                tag("n", count: 0)
            }
        }

        private mutating func tag(_ kind: Unicode.Scalar, count: Int) {
            var header: (UInt8, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &header) { bytes in
                bytes[0] = UInt8(truncatingIfNeeded: kind.value)
                bytes.storeBytes(of: UInt64(count).littleEndian, toByteOffset: 1, as: UInt64.self)
                feed(UnsafeRawBufferPointer(rebasing: bytes[0..<9]))
            }
        }

        /// The digest as 32 bytes, to feed into other fingerprints (`add(digest:)`).
        func finishDigest() -> SHA256.Digest {
            finalized()
        }

        mutating func add(digest: SHA256.Digest) {
            tag("h", count: SHA256.Digest.byteCount)
            digest.withUnsafeBytes { feed($0) }
        }

        package func finish() -> Fingerprint {
            Fingerprint(digest: finalized())
        }
    }
}

extension Fingerprint.Hasher {
    /// Every field of each article, through its digest (`add(digestOf:)`).
    package mutating func add(articles: [Article]) {
        add(articles.count)
        for article in articles { add(digestOf: article) }
    }

    /// Every field of an article through their digest (`add(article:)`), made once per article (`Article.digests(making:)`).
    package mutating func add(digestOf article: Article) {
        let digest = Fingerprint.articleDigester.digests(of: article).fields
        tag("A", count: 32)
        withUnsafeBytes(of: digest) { feed($0) }
    }

    /// What rows and pages show of an article, through its digest (`add(shown:)`), made once per article.
    package mutating func add(shownOf article: Article) {
        let digest = Fingerprint.articleDigester.digests(of: article).shown
        tag("S", count: 32)
        withUnsafeBytes(of: digest) { feed($0) }
    }

    /// Every field of an article (`InputFingerprintTests` counts them). The cache keeps each story's digest
    /// (`Fingerprint.articleDigester`): a change here or in `add(shown:)` that changes any digest must bump the digester's
    /// version (`FingerprintHasherTests` pins one story's digests), or stored digests would be taken for new ones.
    package mutating func add(article: Article) {
        add(article.id)
        add(article.sourceID)
        add(article.title)
        add(article.summary)
        add(article.author)
        add(article.url)
        add(article.imageURL)
        add(date: article.published)
        add(article.categories)
        add(article.guid)
        add(article.content)
        add(article.outlet)
    }

    /// What a row or page shows of an article: title, summary, author, link, image, time (whole seconds, as `<time>`
    /// gives it) and outlet. Not its id, guid or source (the page feeds the site's name for it), nor its tags and text
    /// (only its own page shows those, and feeds them itself).
    package mutating func add(shown article: Article) {
        add("shown")
        add(article.title)
        add(article.summary)
        add(article.author)
        add(article.url)
        add(article.imageURL)
        add(article.published.map(Dates.rfc3339))
        add(article.outlet)
    }

    package mutating func add(date: Date?) {
        guard let date else { return add(nil as String?) }
        add(Int(truncatingIfNeeded: date.timeIntervalSince1970.bitPattern))
    }

    /// A theme: its templates' digest and its assets with their bytes (assets are copied as they are).
    package mutating func add(theme: TemplateSet) {
        add(theme.digest.hex)
        add(theme.assets.count)
        for asset in theme.assets {
            add(asset.path)
            add(asset.data)
        }
    }
}

extension Fingerprint {
    /// A story's digests, kept by the cache beside its row: of every field (`Hasher.add(article:)`, for the input's
    /// fingerprint and feed lists) and of what pages show (`Hasher.add(shown:)`).
    package static let articleDigester = ArticleDigester(version: 1) { article in
        var fields = Hasher()
        fields.add(article: article)
        var shown = Hasher()
        shown.add(shown: article)
        return ArticleDigests(fields: fields.finish().words, shown: shown.finish().words)
    }
}
