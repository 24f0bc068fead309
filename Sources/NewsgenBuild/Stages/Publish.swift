package import Foundation

/// Swaps the validated staging folder into the output's place in one step, so the served folder only ever holds a whole
/// site; the output is checked again first, since files may have appeared in it meanwhile. The previous site is set
/// aside, never served, for the next build to update in place (`Publisher.keepForNextBuild`).
package struct Publish: BuildStep {
    package static let stage = BuildStage.publish

    package var publisher: Publisher

    package init(publisher: Publisher) {
        self.publisher = publisher
    }

    /// The previous site, set aside beside the output; `nil` when there was none.
    @discardableResult
    package func run(_ staging: URL) async throws(PublishError) -> URL? {
        try publisher.swap(in: staging)
    }

    package func summary(of previous: URL?) -> String { "" }
}
