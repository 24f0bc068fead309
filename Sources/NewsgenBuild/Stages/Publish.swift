package import Foundation

/// Stage 8: the validated staging folder swapped into the output's place in one step, so the
/// served folder only ever holds a whole site. The output is checked again first, since files
/// may have appeared in it while the build ran.
///
/// The previous site is set aside, not removed: its removal is no part of publishing, so the
/// build does it while it records the manifest (`Publisher.removePrevious`).
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
