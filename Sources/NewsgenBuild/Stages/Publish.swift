package import Foundation

/// Stage 8: the validated staging folder swapped into the output's place in one step, so the
/// served folder only ever holds a whole site. The output is checked again first, since files
/// may have appeared in it while the build ran.
package struct Publish: BuildStep {
    package static let stage = BuildStage.publish

    package var publisher: Publisher

    package init(publisher: Publisher) {
        self.publisher = publisher
    }

    package func run(_ staging: URL) async throws(PublishError) {
        try publisher.swap(in: staging)
    }

    package func summary(of output: Void) -> String { "" }
}
