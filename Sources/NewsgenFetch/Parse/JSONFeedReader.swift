import Foundation
import NewsgenModel
import NewsgenXML

/// Reads JSON Feed 1.0 and 1.1 documents, tolerating the type slips found in the wild
/// (numeric ids, `author` instead of `authors`).
enum JSONFeedReader {
    static func read(_ data: Data, limits: DocumentLimits = .standard) throws(FeedError) -> ParsedFeed {
        let feed: JSONNode
        do {
            feed = try JSONDocument.parse(data, maximumValues: limits.elements)
        } catch where error.tooManyValues {
            throw .overLimit(.tooManyValues(limit: limits.elements))
        } catch {
            throw .malformedJSON(error.description)
        }
        try FeedParser.checkTime(limits)
        guard feed.members != nil else { throw .malformedJSON("the top level is not an object") }
        guard feed["version"]?.string?.hasPrefix("https://jsonfeed.org/version/") == true || feed["items"] != nil else {
            throw .notAFeed(found: "a JSON document without version or items")
        }
        let items = feed["items"]?.array ?? []
        let feedAuthor = authors(feed)
        return ParsedFeed(
            format: .jsonFeed,
            title: feed["title"]?.string,
            homepage: feed["home_page_url"]?.string,
            items: items.compactMap { item -> FeedItem? in
                guard item.members != nil else { return nil }
                return readItem(item, feedAuthor: feedAuthor)
            }
        )
    }

    private static func readItem(_ object: JSONNode, feedAuthor: String?) -> FeedItem {
        var item = FeedItem()
        item.title = object["title"]?.string.map(FeedText.plain)
        item.summary = object["summary"]?.string.map(FeedText.plain)
        item.content = object["content_html"]?.string.map(FeedText.html) ?? object["content_text"]?.string.map(FeedText.plain)
        item.link = object["url"]?.string ?? object["external_url"]?.string
        // JSON Feed has no xml:base: relative URLs in content_html are relative to the item's page.
        item.contentBase = item.link.flatMap { URL(string: $0)?.scheme == nil ? nil : $0 }
        item.guid = object["id"]?.scalarText
        item.author = authors(object) ?? feedAuthor
        item.published = (object["date_published"]?.string ?? object["date_modified"]?.string).flatMap(Dates.parse)
        item.categories = object["tags"]?.array?.compactMap(\.string) ?? []
        item.image = object["image"]?.string ?? object["banner_image"]?.string
        return item
    }

    private static func authors(_ object: JSONNode) -> String? {
        let list = object["authors"]?.array ?? object["author"].map { [$0] } ?? []
        let names = list.compactMap { author -> String? in author["name"]?.string }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }
}
