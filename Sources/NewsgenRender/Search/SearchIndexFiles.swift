import Foundation
import Synchronization

/// The search index's files for one render: made at once by the first job that asks for one (the chunks need every
/// story), then handed out one per job, each let go of once taken; a record shard is made when its job asks.
final class SearchIndexFiles: Sendable {
    private enum State {
        case waiting(SiteModelBuilder)
        case made(SearchIndexWriter.Made, seconds: Double)
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
        let (file, records) = state.withLock { state -> (Data?, [SearchRecord?]) in
            var made: SearchIndexWriter.Made
            let seconds: Double
            switch state {
            case .waiting(let model):
                let start = ContinuousClock.now
                made = model.searchIndexWriter().make()
                let time = ContinuousClock.now - start
                seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
            case .made(let taken, let took):
                made = taken
                seconds = took
            }
            state = .made(SearchIndexWriter.Made(files: [:], records: []), seconds: seconds)
            let file = made.files.removeValue(forKey: path)
            state = .made(made, seconds: seconds)
            return (file, made.records)
        }
        // A record shard is made outside the lock, beside the other jobs.
        return file ?? SearchIndexWriter.Made(files: [:], records: records).data(path) ?? Data()
    }
}
