import Foundation
import Testing
@testable import NewsgenRender

/// The block a page renders into grows by reallocating and becomes `Data` without a copy: what
/// it holds must be exactly what was appended and inserted, however large.
@Suite("Output buffer")
struct OutputBufferTests {
    @Test("appends and insertions far past the first capacity give the same bytes as an array would")
    func matchesArray() {
        var buffer = OutputBuffer(capacity: 16)
        var expected: [UInt8] = []
        var generator = SystemRandomNumberGenerator()
        for step in 0..<20_000 {
            let piece = Array("piece \(step) é\n".utf8)
            if step % 7 == 3, expected.count > 0 {
                let index = Int.random(in: 0...expected.count, using: &generator)
                buffer.insert(piece, at: index)
                expected.insert(contentsOf: piece, at: index)
            } else if step % 2 == 0 {
                buffer.append(piece)
                expected.append(contentsOf: piece)
            } else {
                buffer.append("text \(step)")
                expected.append(contentsOf: "text \(step)".utf8)
            }
        }
        buffer.append("&amp;" as StaticString)
        expected.append(contentsOf: "&amp;".utf8)
        #expect(buffer.count == expected.count)
        #expect(buffer[expected.count - 1] == expected[expected.count - 1])
        #expect(buffer.data() == Data(expected))
    }

    @Test("an empty buffer is empty data")
    func empty() {
        #expect(OutputBuffer(capacity: 0).data().isEmpty)
    }
}
