import Foundation
@testable import NewsgenFetch
import NewsgenTestSupport

extension TestSupport {
    /// Parses `text` as a feed document fetched from `url`.
    static func parse(_ text: String, url: String = "test.xml") throws -> ParsedFeed {
        try FeedParser.parse(Data(text.utf8), url: url)
    }
}
