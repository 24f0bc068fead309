// GroupingBench: what `Scripts/bench-grouping` prints about story grouping (docs/grouping.md, BENCHMARKS.md "Grouping").
//
//   GroupingBench [--lee DIR] [--stories N] [--sweep]
//
// BCubed precision and recall on the labelled stories (with --sweep, also at thresholds from 0.20 to 0.50); with --lee,
// the Pearson correlation of grouping's similarity with the human ratings of the Lee corpus (DIR holds lee.cor,
// similarities0-1.txt and lee_background.cor, as gensim's test data ships them); and the time to group N stories (10,000
// by default: the labelled set repeated, four days apart), from nothing and then one new story with the others grouped.
import Foundation
import NewsgenModel
import NewsgenTestSupport

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let labelled = try LabelledStories.load()
let grouping = StoryGrouping()
let assigned = grouping.assign(labelled.groupable, known: [:])
let (precision, recall) = labelled.bcubed(assigned)
let events = Set(labelled.stories.map(\.event)).count
let sources = Set(labelled.stories.map(\.source)).count
print(String(format: "labelled set: %d stories, %d events, %d outlets; threshold %.2f, window %.0f h",
             labelled.stories.count, events, sources, grouping.threshold, grouping.window / 3600))
print(String(format: "BCubed precision %.3f, recall %.3f", precision, recall))
if CommandLine.arguments.contains("--sweep") {
    for threshold in stride(from: Float(0.20), through: 0.501, by: 0.05) {
        let (p, r) = labelled.bcubed(StoryGrouping(threshold: threshold).assign(labelled.groupable, known: [:]))
        print(String(format: "  threshold %.2f: precision %.3f, recall %.3f", threshold, p, r))
    }
}

if let folder = option("--lee") {
    let directory = URL(fileURLWithPath: folder)
    func lines(_ name: String) throws -> [String] {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
    }
    let documents = try lines("lee.cor")
    let ratings = try lines("similarities0-1.txt").map { $0.split(whereSeparator: \.isWhitespace).compactMap { Double($0) } }
    let background = (try? lines("lee_background.cor")) ?? []
    func pearson(_ x: [Double], _ y: [Double]) -> Double {
        let (mx, my) = (x.reduce(0, +) / Double(x.count), y.reduce(0, +) / Double(y.count))
        var (sxy, sxx, syy) = (0.0, 0.0, 0.0)
        for (a, b) in zip(x, y) {
            sxy += (a - mx) * (b - my)
            sxx += (a - mx) * (a - mx)
            syy += (b - my) * (b - my)
        }
        return sxy / (sxx * syy).squareRoot()
    }
    for (name, corpus) in [("the 50 documents", documents), ("the 50 and the 300 background documents", documents + background)] {
        let vectors = TermVectors(corpus.map { [TermVectors.Field($0, weight: 1)] })
        var human: [Double] = []
        var ours: [Double] = []
        for first in 0..<documents.count {
            for second in (first + 1)..<documents.count where first < ratings.count && second < ratings[first].count {
                human.append(ratings[first][second])
                ours.append(Double(vectors.similarity(first, second)))
            }
        }
        print(String(format: "Lee corpus: Pearson %.3f over %d pairs", pearson(human, ours), human.count) + " (word weights from \(name))")
    }
}

let count = option("--stories").flatMap(Int.init) ?? 10_000
let copies = (count + labelled.stories.count - 1) / labelled.stories.count
let large = LabelledStories(stories: Array(labelled.repeated(copies, daysApart: 4).stories.prefix(count)))
let stories = large.groupable
var cold: [Double] = []
var groups: [String: String] = [:]
for _ in 0..<3 {
    let clock = ContinuousClock()
    let start = clock.now
    groups = grouping.assign(stories, known: [:])
    cold.append(seconds(clock.now - start))
}
let (largePrecision, largeRecall) = large.bcubed(groups)
var newcomer = stories[stories.count / 2]
newcomer.id = "newcomer"
newcomer.sourceID = "another-outlet"
var cron: [Double] = []
for _ in 0..<3 {
    let clock = ContinuousClock()
    let start = clock.now
    _ = grouping.assign(stories + [newcomer], known: groups)
    cron.append(seconds(clock.now - start))
}
print(String(format: "%d stories grouped from nothing: %.3f s (median of 3; BCubed %.3f / %.3f); one new story among them: %.3f s",
             stories.count, cold.sorted()[1], largePrecision, largeRecall, cron.sorted()[1]))
