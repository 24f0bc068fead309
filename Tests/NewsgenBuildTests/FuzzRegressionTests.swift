import Foundation
import NewsgenFuzzing
import NewsgenTestSupport
import Testing

/// Every input a fuzz target once failed on (Fuzz/Regressions/<target>/), and every seed
/// (Fuzz/Seeds/<target>/), run through the fuzz target's own entry: no crash, no failed check,
/// and quickly (a hang found by the fuzzer is kept here too).
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let fuzz = TestSupport.repository.appendingPathComponent("Fuzz")

    static func inputs(in folder: String, of target: FuzzTarget) -> [URL] {
        let url = fuzz.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted().map { url.appendingPathComponent($0) }
    }

    @Test("kept crashers, hangs and seeds pass their fuzz target's checks", arguments: FuzzTarget.allCases)
    func regressions(target: FuzzTarget) async throws {
        let inputs = Self.inputs(in: "Regressions", of: target) + Self.inputs(in: "Seeds", of: target)
        #expect(!inputs.isEmpty, "every target has at least a seed")
        for input in inputs {
            let started = ContinuousClock.now
            let problem = await target.run(try Data(contentsOf: input))
            #expect(problem == nil, "\(input.lastPathComponent): \(problem ?? "")")
            #expect(ContinuousClock.now - started < .seconds(5), "\(input.lastPathComponent) took too long")
        }
    }
}
