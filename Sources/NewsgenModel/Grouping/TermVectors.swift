import Foundation

/// TF-IDF vectors of a set of texts, for cosine similarity: each term weighs (1 + ln tf) × (ln((n + 1) / (df + 1)) + 1),
/// where tf counts the term in the text (fields weighted as given) and df counts the texts of the set holding it; each
/// vector has length 1. Made from the same texts in the same order, the vectors are the same, bit for bit.
package struct TermVectors: Sendable {
    /// One text's terms in ascending order of their number, with their weights.
    package struct Vector: Sendable {
        package var terms: [Int32] = []
        package var weights: [Float] = []
    }

    /// One part of a text and how much its terms count (a title more than a summary).
    package struct Field {
        package var text: String
        package var weight: Float
        /// The text is HTML (`StoryTerms.forEach(in:markup:)`).
        package var markup = false
        /// At most this many of its terms are read.
        package var limit = Int.max

        package init(_ text: String, weight: Float, markup: Bool = false, limit: Int = Int.max) {
            self.text = text
            self.weight = weight
            self.markup = markup
            self.limit = limit
        }
    }

    package private(set) var vectors: [Vector]
    /// How many texts hold each term, by term number.
    package private(set) var documentFrequency: [Int32]

    /// The vectors of `texts` (each a list of fields).
    package init(_ texts: [[Field]]) {
        var numbers: [String: Int32] = [:]
        var frequency: [Int32] = []
        var counts: [[Int32: Float]] = []
        counts.reserveCapacity(texts.count)
        for fields in texts {
            var count: [Int32: Float] = [:]
            for field in fields {
                var read = 0
                StoryTerms.forEach(in: field.text, markup: field.markup) { term in
                    guard read < field.limit else { return }
                    read += 1
                    let number: Int32
                    if let known = numbers[term] {
                        number = known
                    } else {
                        number = Int32(frequency.count)
                        numbers[term] = number
                        frequency.append(0)
                    }
                    count[number, default: 0] += field.weight
                }
            }
            for term in count.keys { frequency[Int(term)] += 1 }
            counts.append(count)
        }
        let total = Float(texts.count)
        let inverse = frequency.map { logf((total + 1) / (Float($0) + 1)) + 1 }
        vectors = counts.map { count in
            var vector = Vector()
            let terms = count.keys.sorted()
            vector.terms = terms
            vector.weights = terms.map { term in (1 + logf(count[term] ?? 1)) * inverse[Int(term)] }
            var sum: Float = 0
            for weight in vector.weights { sum += weight * weight }
            let length = sum.squareRoot()
            if length > 0 { vector.weights = vector.weights.map { $0 / length } }
            return vector
        }
        documentFrequency = frequency
    }

    /// The cosine of the angle between two texts' vectors: 0 for no term in common, 1 for the same terms in the same
    /// proportions.
    package func similarity(_ first: Int, _ second: Int) -> Float {
        Self.cosine(vectors[first], vectors[second])
    }

    static func cosine(_ a: Vector, _ b: Vector) -> Float {
        var (i, j) = (0, 0)
        var sum: Float = 0
        while i < a.terms.count && j < b.terms.count {
            let (left, right) = (a.terms[i], b.terms[j])
            if left == right {
                sum += a.weights[i] * b.weights[j]
                i += 1
                j += 1
            } else if left < right {
                i += 1
            } else {
                j += 1
            }
        }
        return sum
    }
}
