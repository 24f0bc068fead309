/// One story as the search index holds it: the record the results show, and the text of each field it is found by.
struct SearchStory: Sendable {
    var record: SearchRecord
    /// The story's own tags and categories, and its section's name.
    var tags: [String]
    var sourceName: String
    var summary: String
    /// The full text (`Article.content`) as plain text, or "".
    var text: String
    /// The filter terms that list it: `~s:<source id>`, `~c:<category slug>`.
    var filters: [String]

    var title: String { record.title }
}

/// What a result shows of a story: one entry of a record shard (`records/<s>.json`).
struct SearchRecord: Sendable {
    var title: String
    /// The page's slug (`articles/<link>/`), or the story's URL when it has no page, or "".
    var link: String
    /// The source's place in the manifest's sources, or −1.
    var source: Int
    /// "yyyy-mm-dd" (UTC), or "" for a story without a date.
    var day: String
    /// Plain text shown under the title: the summary, or the full text's start.
    var snippet: String
}

/// A term's weight in one story: BM25's term frequency part, summed over the story's fields with a boost each, and
/// with each field's length measured against a fixed typical length (not the archive's average), so that adding a
/// story never changes another's weights. The browser multiplies by the term's inverse document frequency.
enum SearchWeights {
    struct Field {
        var boost: Double
        var typicalLength: Double
    }

    static let title = Field(boost: 3, typicalLength: 10)
    static let tags = Field(boost: 2, typicalLength: 4)
    static let source = Field(boost: 1, typicalLength: 3)
    static let summary = Field(boost: 1, typicalLength: 40)
    static let text = Field(boost: 1, typicalLength: 400)
    static let k1 = 1.2, b = 0.75
    /// Weights are written as whole numbers from 1 to 63: the score times this.
    static let scale = 3.0

    /// Every term of `story` with its weight (1–63), the filter terms with weight 1.
    static func weights(of story: SearchStory) -> [String: Int] {
        var scores: [String: Double] = [:]
        func add(_ words: [String], _ field: Field) {
            guard !words.isEmpty else { return }
            var counts: [String: Int] = [:]
            for word in words { counts[word, default: 0] += 1 }
            let norm = k1 * (1 - b + b * Double(words.count) / field.typicalLength)
            for (word, count) in counts {
                let frequency = Double(count)
                scores[word, default: 0] += field.boost * frequency * (k1 + 1) / (frequency + norm)
            }
        }
        add(SearchText.words(story.title), title)
        add(story.tags.flatMap(SearchText.words), tags)
        add(SearchText.words(story.sourceName), source)
        add(SearchText.words(story.summary), summary)
        add(SearchText.words(story.text), text)
        var weights = scores.mapValues { min(63, max(1, Int(($0 * scale).rounded()))) }
        for filter in story.filters { weights[filter] = 1 }
        return weights
    }
}
