import Foundation
import Testing
@testable import NewsgenBuild
import NewsgenTestSupport

@Suite("Mapped files")
struct MappedFileTests {
    /// `count` bytes that differ from page to page and within one, none of them zero.
    static func bytes(_ count: Int) -> Data {
        Data((0..<count).map { (place: Int) -> UInt8 in
            let value: Int = (place * 7 + place / 4096) % 251
            return UInt8(1 + value)
        })
    }

    @Test("a file of several pages reads as its bytes, and still does once its pages are handed back, in the copies made before and after, and once the mapping's owner is gone")
    func releasedPagesReadAgain() throws {
        let file = try TestSupport.temporaryFolder().appendingPathComponent("three pages")
        let content = Self.bytes(3 * 4096 + 123)
        try content.write(to: file)
        let kept: Data
        do {
            let mapped = try #require(MappedFile(file))
            #expect(mapped.bytes == content)
            let slice = mapped.bytes[5000..<9000]
            mapped.releasePages()
            #expect(mapped.bytes == content, "the bytes come back from the file, not as zeros")
            #expect(slice == content[5000..<9000])
            kept = mapped.bytes
        }
        #expect(kept == content, "the bytes keep their mapping")
    }

    @Test("a file replaced by a rename after it was mapped still reads as it was, its pages handed back or not")
    func replacedFile() throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder.appendingPathComponent("record")
        let content = Self.bytes(2 * 4096)
        try content.write(to: file)
        let mapped = try #require(MappedFile(file))
        let other = folder.appendingPathComponent("next")
        try Data(repeating: 0x41, count: 5 * 4096).write(to: other)
        #expect(rename(other.path, file.path) == 0)
        mapped.releasePages()
        #expect(mapped.bytes == content)
    }

    @Test("a file smaller than a page, or empty, is read into memory; a folder or a missing file is nothing")
    func smallEmptyAndMissing() throws {
        let folder = try TestSupport.temporaryFolder()
        let small = folder.appendingPathComponent("small")
        try Self.bytes(100).write(to: small)
        let read = try #require(MappedFile(small))
        read.releasePages()
        #expect(read.bytes == Self.bytes(100))
        let empty = folder.appendingPathComponent("empty")
        try Data().write(to: empty)
        #expect(MappedFile(empty)?.bytes == Data())
        #expect(MappedFile(folder) == nil)
        #expect(MappedFile(folder.appendingPathComponent("missing")) == nil)
    }
}
