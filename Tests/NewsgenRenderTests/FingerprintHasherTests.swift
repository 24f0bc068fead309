import Crypto
import Foundation
import Testing
@testable import NewsgenRender
import NewsgenModel

/// A fingerprint is the SHA-256 of its values' stream: each value a tag (its kind, one byte),
/// its length (eight bytes, little-endian) and its bytes. The hasher gathers small values in a
/// buffer before hashing them; the digest must be the stream's, whatever the values' sizes.
@Suite("Fingerprint hasher")
struct FingerprintHasherTests {
    /// The stream of one value, as `Fingerprint.Hasher` feeds it.
    static func tagged(_ kind: Character, count: Int, _ bytes: [UInt8] = []) -> [UInt8] {
        [UInt8(ascii: kind.unicodeScalars.first ?? "?")] + withUnsafeBytes(of: UInt64(count).littleEndian, Array.init) + bytes
    }

    @Test("values of every size, fed in any order and with the hasher copied midway, give the SHA-256 of their stream")
    func bufferedStream() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var hasher = Fingerprint.Hasher()
            var stream: [UInt8] = []
            for _ in 0..<Int.random(in: 0...60, using: &generator) {
                // Sizes around the buffer's 256 bytes and its multiples, and small ones.
                let size = [0, 1, 7, 9, 100, 246, 247, 255, 256, 257, 511, 512, 1_000, 5_000].randomElement(using: &generator) ?? 1
                switch Int.random(in: 0..<5, using: &generator) {
                case 0:
                    let text = String(repeating: "é", count: size / 2) + String(repeating: "x", count: size % 2)
                    hasher.add(text)
                    stream += Self.tagged("s", count: text.utf8.count, Array(text.utf8))
                case 1:
                    let data = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
                    hasher.add(data)
                    stream += Self.tagged("d", count: data.count, Array(data))
                case 2:
                    let number = Int.random(in: Int.min...Int.max, using: &generator)
                    hasher.add(number)
                    stream += Self.tagged("i", count: 0, withUnsafeBytes(of: Int64(number).littleEndian, Array.init))
                case 3:
                    hasher.add(nil as String?)
                    stream += Self.tagged("n", count: 0)
                default:
                    // A copy finished midway does not disturb the original.
                    let copy = hasher
                    #expect(copy.finish().hex == Self.hex(SHA256.hash(data: stream)))
                }
            }
            #expect(hasher.finish().hex == Self.hex(SHA256.hash(data: stream)))
            #expect(hasher.finish() == hasher.finish(), "finishing twice gives the same")
        }
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    @Test("an article's digest is made once and kept, and forgotten when a field changes: in place, or in a copy that shared it")
    func articleDigest() {
        func fed(_ article: Article) -> Fingerprint {
            var hasher = Fingerprint.Hasher()
            hasher.add(digestOf: article)
            return hasher.finish()
        }
        func fresh(_ article: Article) -> Fingerprint {
            fed(Article(id: article.id, sourceID: article.sourceID, title: article.title, summary: article.summary, author: article.author,
                        url: article.url, imageURL: article.imageURL, published: article.published, categories: article.categories,
                        guid: article.guid, content: article.content, outlet: article.outlet))
        }
        var article = Article(id: "https://example.com/a", sourceID: "world", title: "Harbour reopens", content: "<p>Story</p>")
        let first = fed(article)
        var made = 0
        _ = article.digests { _ in made += 1; return ArticleDigests(fields: .zero, shown: .zero) }
        #expect(made == 0, "kept once made")
        #expect(fed(article) == first)
        // Changed in place (the only reference to its fields).
        article.title = "Harbour reopens to ships"
        #expect(fed(article) != first)
        #expect(fed(article) == fresh(article))
        // A copy shares the fields and their digest until either changes.
        let kept = article
        var copy = article
        let shared = fed(copy)
        copy.content = "<p>Story, corrected.</p>"
        #expect(fed(copy) == fresh(copy))
        #expect(fed(copy) != shared)
        #expect(fed(kept) == shared)
        #expect(fed(article) == shared)
    }

    @Test("the digests the cache keeps with each story are the ones its version names: a change to them must change the version")
    func articleDigesterVersion() {
        // Every field set, so that a change to how any of them is fed shows here.
        let story = Article(
            id: "https://example.com/a", sourceID: "world", title: "Harbour reopens", summary: "Ships are back.", author: "Ann",
            url: "https://example.com/a", imageURL: "https://example.com/a.jpg", published: Date(timeIntervalSince1970: 1_795_000_000.5),
            categories: ["Port", "City"], guid: "g-1", content: "<p>Story</p>", outlet: "Harbour Times"
        )
        func hex(_ digest: SIMD4<UInt64>) -> String {
            var bytes: [UInt8] = []
            for word in 0..<4 { withUnsafeBytes(of: digest[word].bigEndian) { bytes += $0 } }
            return bytes.map { String(format: "%02x", $0) }.joined()
        }
        let digests = Fingerprint.articleDigester.make(story)
        // Changed on purpose? Then raise `articleDigester`'s version and write them all here.
        #expect(Fingerprint.articleDigester.version == 1)
        #expect(hex(digests.fields) == "8b8abe312bc201c9541a953c17f26200de4df988cc5bdc3415b57c5232777e3e",
                "the digest of the fields changed: raise Fingerprint.articleDigester's version (caches keep these digests)")
        #expect(hex(digests.shown) == "b2a0f039eb26acf1291f1dd6b0b56907a2a3fc9e3d61f64a8b25f5ada22f6a54",
                "the digest of what is shown changed: raise Fingerprint.articleDigester's version (caches keep these digests)")
        // What is shown leaves out what rows and pages do not show.
        var unshown = story
        unshown.guid = "g-2"
        unshown.categories = []
        unshown.content = nil
        unshown.published = Date(timeIntervalSince1970: 1_795_000_000.75)
        #expect(Fingerprint.articleDigester.make(unshown).shown == digests.shown)
        #expect(Fingerprint.articleDigester.make(unshown).fields != digests.fields)
    }
}

@Suite("Relative roots")
struct RelativeRootTests {
    @Test("a page's way back to the site's root: one ../ per component of its path", arguments: [
        ("", ""), ("index.html", "../"), ("articles/story/", "../../"), ("archive/2026/11/24/", "../../../../"),
        ("a//b", "../../"), ("/a/", "../"),
    ])
    func root(_ page: String, _ root: String) {
        #expect(SitePaths.root(fromPage: page) == root)
        #expect(root == String(repeating: "../", count: page.split(separator: "/").count))
    }
}
