package import Foundation
package import NewsgenRender

/// Stage 6: the rendered files in a new staging folder beside the output, which the served
/// folder does not see until stage 8 swaps it in. A folder it cannot fill is removed again.
package struct Write: BuildStep {
    package static let stage = BuildStage.write

    package var publisher: Publisher

    package init(publisher: Publisher) {
        self.publisher = publisher
    }

    /// The staging folder, and how many files were written or carried over unchanged.
    package struct Staged: Sendable {
        package var folder: URL
        package var summary: Publisher.WriteSummary
    }

    package func run(_ files: [OutputFile]) async throws(PublishError) -> Staged {
        let staging = try publisher.makeStaging()
        do {
            return Staged(folder: staging, summary: try await publisher.write(files, to: staging))
        } catch {
            publisher.discard(staging)
            throw error
        }
    }

    package func summary(of staged: Staged) -> String {
        "\(staged.summary.written) written, \(staged.summary.unchanged) unchanged"
    }
}
