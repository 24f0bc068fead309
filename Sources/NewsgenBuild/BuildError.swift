public import NewsgenConfig
public import NewsgenStore
public import NewsgenRender
public import NewsgenValidate

/// Why a build published nothing, and at which stage. Reads as the reason's own line(s), naming the file, key or source.
public struct BuildError: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable {
        case config(ConfigError)
        case templates(TemplateError)
        case validation(ValidationReport)
        case publish(PublishError)
        case locked(LockError)
        case store(StoreError)
    }

    /// The stage that failed; `nil` for the checks before any stage (the output's place, the lock, opening the cache).
    public var stage: BuildStage?
    public var reason: Reason

    public init(_ reason: Reason, stage: BuildStage? = nil) {
        self.reason = reason
        self.stage = stage
    }

    /// A failed validation lists this many problems, then how many more there are.
    static let problemsShown = 50

    public var description: String {
        switch reason {
        case .config(let error): error.description
        case .templates(let error): error.description
        case .validation(let report): Self.describe(report)
        case .publish(let error): error.description
        case .locked(let error): error.description
        case .store(let error): error.description
        }
    }
}

extension BuildError {
    /// A failed validation: each distinct problem once (with its count), up to `problemsShown`, then how many more, then
    /// the summary.
    static func describe(_ report: ValidationReport) -> String {
        let groups = report.grouped
        var lines = groups.prefix(problemsShown).map { group in
            let others = group.count - 1
            guard others > 0 else { return group.first.description }
            let files = group.files > 1 ? " in \(group.files) files" : ""
            return "\(group.first) (and \(others) more like it\(files))"
        }
        if groups.count > problemsShown {
            let rest = groups.dropFirst(problemsShown).reduce(0) { $0 + $1.count }
            lines.append("… and \(rest) more")
        }
        lines.append("validation failed: \(report.summary); nothing was published")
        return lines.joined(separator: "\n")
    }
}

extension ConfigError: StageFailure {
    package var buildReason: BuildError.Reason { .config(self) }
}

extension TemplateError: StageFailure {
    package var buildReason: BuildError.Reason { .templates(self) }
}

extension PublishError: StageFailure {
    package var buildReason: BuildError.Reason { .publish(self) }
}
