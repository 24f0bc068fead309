import Foundation
package import Logging

/// Runs the stages: times each, logs it as `[i/n] name summary 0.12 s` (shown with --verbose),
/// and attaches the stage to any failure, so an error says where the build stopped.
package struct StageClock {
    let logger: Logger
    /// Each stage that finished, with its duration in seconds, in order.
    package private(set) var timings: [(stage: BuildStage, seconds: Double)] = []

    package init(logger: Logger) {
        self.logger = logger
    }

    package mutating func run<Step: BuildStep>(_ step: Step, _ input: Step.Input) async throws(BuildError) -> Step.Output {
        let start = ContinuousClock.now
        do {
            let output = try await step.run(input)
            finish(Step.stage, start: start, summary: step.summary(of: output))
            return output
        } catch {
            if let summary = step.summary(ofFailure: error) {
                finish(Step.stage, start: start, summary: summary)
            }
            throw BuildError(error.buildReason, stage: Step.stage)
        }
    }

    package mutating func run<Step: BuildStep>(_ step: Step) async throws(BuildError) -> Step.Output where Step.Input == Void {
        try await run(step, ())
    }

    private mutating func finish(_ stage: BuildStage, start: ContinuousClock.Instant, summary: String) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        timings.append((stage, seconds))
        let text = summary.isEmpty ? "" : " \(summary)"
        logger.info("[\(stage.number)/\(BuildStage.allCases.count)] \(stage.rawValue)\(text) \(String(format: "%.2f", seconds)) s")
    }
}
