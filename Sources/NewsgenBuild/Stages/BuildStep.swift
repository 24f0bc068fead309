/// One stage of the pipeline as a value: settings are stored properties, the previous stage's output is its `Input`, and
/// it fails only with its own `Failure`, so it runs the same way in `Build` (through `StageClock`) and alone in a test.
package protocol BuildStep: Sendable {
    associatedtype Input: Sendable = Void
    associatedtype Output: Sendable
    associatedtype Failure: StageFailure = Never

    /// Which stage of the pipeline this is: its place and its name in the log.
    static var stage: BuildStage { get }

    func run(_ input: Input) async throws(Failure) -> Output

    /// What `--verbose` shows after the stage's name (`12 sources (2 from cache or unavailable), 80 articles`); may be empty.
    func summary(of output: Output) -> String

    /// The line's text when the stage fails, for a failure that is a finding rather than an accident
    /// (validation counts its problems); `nil` logs no line.
    func summary(ofFailure failure: Failure) -> String?
}

extension BuildStep {
    package func summary(ofFailure failure: Failure) -> String? { nil }
}

/// A stage's typed failure, and which of `BuildError`'s reasons it is.
package protocol StageFailure: Error {
    var buildReason: BuildError.Reason { get }
}

extension Never: StageFailure {
    package var buildReason: BuildError.Reason {
        switch self {}
    }
}
