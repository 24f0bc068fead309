import Foundation
import Synchronization

/// The search index's files for one render: made all at once by the first job that asks for one (the chunks need
/// every story), then handed out one per job, each let go of once taken.
final class SearchIndexFiles: Sendable {
    private enum State {
        case waiting(SiteModelBuilder)
        case made([String: Data], seconds: Double)
    }

    private let state: Mutex<State>

    init(_ model: SiteModelBuilder) {
        state = Mutex(.waiting(model))
    }

    /// How long making the files took, once made.
    var seconds: Double {
        state.withLock { state in
            if case .made(_, let seconds) = state { return seconds }
            return 0
        }
    }

    /// The bytes of the index file at `path` (one of `SearchIndex.paths`); each path is asked for once.
    func data(_ path: String) -> Data {
        state.withLock { state in
            var files: [String: Data]
            let seconds: Double
            switch state {
            case .waiting(let model):
                let start = ContinuousClock.now
                files = model.searchIndexWriter().files()
                let time = ContinuousClock.now - start
                seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
            case .made(let made, let taken):
                files = made
                seconds = taken
            }
            state = .made([:], seconds: seconds)
            let data = files.removeValue(forKey: path) ?? Data()
            state = .made(files, seconds: seconds)
            return data
        }
    }
}
