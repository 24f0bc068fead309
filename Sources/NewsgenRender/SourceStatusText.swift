import Foundation
import NewsgenModel

/// What readers are told of a source's last fetch: a state for styling and one sentence. The sentence never carries the
/// error, which is for the site's owner and goes to the build's log (`FetchStage`); a page shows it once per source.
/// Its times are those of the source's state, never the build's, so a page keeps its bytes while a source stays down.
struct SourceStatusText: Sendable, Hashable {
    /// "ok", "stale" or "failed".
    var state: String
    var text: String

    init(_ status: SourceReport.Status) {
        switch status {
        case .fetched:
            state = "ok"
            text = "Updated"
        case .notModified:
            state = "ok"
            text = "Unchanged since the last fetch"
        case .recent(let date), .offline(let date):
            state = "ok"
            text = "Updated \(Dates.readable(date))"
        case .stale(let lastSuccess, _, let since):
            let shown = since.map { Dates.readable(lastSuccess, sameDayAs: $0) } ?? Dates.readable(lastSuccess)
            state = "stale"
            text = "\(Self.unreachable(since)); showing stories from \(shown)."
        case .unavailable(let since, _):
            state = "failed"
            text = "\(Self.unreachable(since)); no recent stories to show."
        }
    }

    var isOK: Bool { state == "ok" }

    private static func unreachable(_ since: Date?) -> String {
        "Couldn’t be reached" + (since.map { " since \(Dates.readable($0))" } ?? "")
    }
}
