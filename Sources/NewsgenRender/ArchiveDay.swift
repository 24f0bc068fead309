import Foundation
import NewsgenModel

/// The archive's stories of one UTC day.
///
/// The archive is cut by day, not into numbered pages, so that a story arriving changes its
/// own day's page and the index, and leaves every other day's bytes alone.
struct ArchiveDay: Sendable {
    /// "2026-11-21": the date part of the stories' RFC 3339 time, which is always UTC.
    var key: String
    /// "21 Nov 2026"
    var title: String
    /// Newest first.
    var articles: [Article]

    /// Splits articles sorted newest first into their days, newest day first, and the stories
    /// that carry no date (which belong to no day).
    static func group(_ articles: [Article]) -> (days: [ArchiveDay], undated: [Article]) {
        var days: [ArchiveDay] = []
        var undated: [Article] = []
        for article in articles {
            guard let published = article.published else {
                undated.append(article)
                continue
            }
            let key = Dates.rfc3339Day(published)
            if days.last?.key == key {
                days[days.count - 1].articles.append(article)
            } else if let index = days.firstIndex(where: { $0.key == key }) {
                days[index].articles.append(article)
            } else {
                days.append(ArchiveDay(key: key, title: Dates.readableDay(published), articles: [article]))
            }
        }
        // Sorted input needs no sort; this keeps the pages right if a caller's order is not.
        days.sort { $0.key > $1.key }
        return (days, undated)
    }
}
