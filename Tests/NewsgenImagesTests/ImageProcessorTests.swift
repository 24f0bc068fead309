import Foundation
import Testing
@testable import NewsgenImages
import NewsgenTestSupport

/// Hostile and ordinary images through libvips. The fixtures (Tests/NewsgenTestSupport/Fixtures/images) were made for these tests with vips and a few lines of Python.
@Suite("Image processor")
struct ImageProcessorTests {
    func fixture(_ name: String) throws -> Data {
        try TestSupport.fixture("images/\(name)")
    }

    /// The WebP file's size as its header says (VP8 or VP8L or VP8X), to check the bytes are what they claim.
    func webp(_ data: Data) -> Bool {
        data.count > 12 && data.prefix(4) == Data("RIFF".utf8) && data[8..<12] == Data("WEBP".utf8)
    }

    @Test("a 2400 px JPEG gives 320, 640 and 1280 px WebP variants, each far smaller than the original")
    func widths() throws {
        let original = try fixture("wide.jpg")
        let image = try ImageProcessor.process(original)
        #expect(image.variants.map(\.size.width) == [320, 640, 1280])
        #expect(image.variants.map(\.size.height) == [213, 427, 853])
        #expect(image.variants.allSatisfy { webp($0.data) })
        #expect(image.variants[0].data.count < original.count / 4)
    }

    @Test("never enlarged: a 200 px image gives one 200 px variant")
    func small() throws {
        let image = try ImageProcessor.process(try fixture("alpha.png"))
        #expect(image.variants.map(\.size.width) == [200])
        #expect(image.variants.map(\.size.height) == [100])
    }

    @Test("EXIF orientation is applied: a 400×300 file turned by its tag shows 300×400")
    func orientation() throws {
        let image = try ImageProcessor.process(try fixture("rotated.jpg"))
        #expect(image.variants.last.map { [$0.size.width, $0.size.height] } == [300, 400])
    }

    @Test("a CMYK JPEG comes out as an sRGB WebP; an animated GIF as its first frame")
    func colourAndFrames() throws {
        let cmyk = try ImageProcessor.process(try fixture("cmyk.jpg"))
        #expect(cmyk.variants.map(\.size.width) == [320, 600])
        #expect(cmyk.variants.allSatisfy { webp($0.data) })
        let gif = try ImageProcessor.process(try fixture("animated.gif"))
        #expect(gif.variants.map(\.size.width) == [1])
    }

    @Test("refused: a decompression bomb by its header, SVG, HTML, nothing, a truncated file")
    func hostile() throws {
        #expect(throws: ImageRefusal.tooManyPixels(width: 20000, height: 20000)) { try ImageProcessor.process(try fixture("bomb.png")) }
        #expect { try ImageProcessor.process(try fixture("image.svg")) } throws: { error in
            if case .notAnImage = error as? ImageRefusal { true } else { false }
        }
        #expect(throws: ImageRefusal.notAnImage(format: nil)) { try ImageProcessor.process(try fixture("notfound.html")) }
        #expect(throws: ImageRefusal.notAnImage(format: nil)) { try ImageProcessor.process(Data()) }
        #expect { try ImageProcessor.process(try fixture("truncated.jpg")) } throws: { error in
            if case .damaged = error as? ImageRefusal { true } else { false }
        }
    }

    @Test("the same bytes give the same variants, byte for byte")
    func deterministic() throws {
        let original = try fixture("wide.jpg")
        #expect(try ImageProcessor.process(original) == ImageProcessor.process(original))
    }
}
