import Foundation
import NewsgenModel

/// The article payloads of NewsAPI (`{status, totalResults, articles}`) and of origins/003 news APIs (`news`,
/// items with `tags`). Untrusted: every field is optional, numbers are taken for strings (ids), and a wrong-typed
/// field reads as missing rather than failing the page.
struct NewsPayload: Sendable, Decodable {
    var status: String?
    var totalResults: Int?
    var code: String?
    var message: String?
    /// `articles` (NewsAPI) or `news` (the contract).
    var items: [Item]?
    /// Which of the two keys held the items.
    var itemsKey: String?

    struct Item: Sendable, Decodable {
        var id: String?
        var sourceID: String?
        var sourceName: String?
        var tags: [String]
        var author: String?
        var title: String?
        var description: String?
        var url: String?
        var urlToImage: String?
        var publishedAt: String?
        var content: String?

        enum CodingKeys: String, CodingKey {
            case id, source, tags, author, title, description, url, urlToImage, publishedAt, content
        }

        enum NamedKeys: String, CodingKey { case id, name }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = container.loose(.id)
            if let source = try? container.nestedContainer(keyedBy: NamedKeys.self, forKey: .source) {
                sourceID = source.loose(.id)
                sourceName = source.loose(.name)
            }
            var tags: [String] = []
            if var list = try? container.nestedUnkeyedContainer(forKey: .tags) {
                while !list.isAtEnd {
                    if let tag = try? list.nestedContainer(keyedBy: NamedKeys.self), let name = tag.loose(.name) {
                        tags.append(name)
                    } else if let name = try? list.decode(String.self) {
                        tags.append(name)
                    } else {
                        _ = try? list.decode(LooseValue.self)
                    }
                }
            }
            self.tags = tags
            author = container.loose(.author)
            title = container.loose(.title)
            description = container.loose(.description)
            url = container.loose(.url)
            urlToImage = container.loose(.urlToImage)
            publishedAt = container.loose(.publishedAt)
            content = container.loose(.content)
        }

        /// NewsAPI's stand-in for a removed article: title "[Removed]", URL https://removed.com.
        var isPlaceholder: Bool {
            title?.trimmingCharacters(in: .whitespaces) == "[Removed]"
                || url.flatMap(URL.init(string:))?.host?.lowercased() == "removed.com"
        }

        /// As a feed entry, for `ParsedFeed.articles`. The summary is the description, else the content without its
        /// "[+1234 chars]" tail.
        func feedItem(categories: Bool) -> FeedItem {
            let summary = description.flatMap { $0.trimmedWhitespace.isEmpty ? nil : FeedText.html($0) }
            let body = content.map(NewsPayload.trimmingTruncationMarker).flatMap { $0.isEmpty ? nil : FeedText.html($0) }
            return FeedItem(
                title: title.map(FeedText.plain),
                summary: summary ?? body,
                content: nil,
                author: author,
                link: url,
                guid: id,
                image: urlToImage,
                published: publishedAt.flatMap(Dates.parse),
                categories: categories ? tags : [],
                outlet: sourceName
            )
        }
    }

    enum CodingKeys: String, CodingKey {
        case status, totalResults, code, message, articles, news
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = container.loose(.status)
        totalResults = (try? container.decodeIfPresent(Int.self, forKey: .totalResults)) ?? nil
        code = container.loose(.code)
        message = container.loose(.message)
        for key in [CodingKeys.articles, .news] {
            if var list = try? container.nestedUnkeyedContainer(forKey: key) {
                var items: [Item] = []
                while !list.isAtEnd {
                    if let item = try? list.decode(Item.self) {
                        items.append(item)
                    } else if (try? list.decode(LooseValue.self)) == nil {
                        // Nothing decodes this element, so the list cannot move past it: stop rather than loop forever.
                        break
                    }
                }
                self.items = items
                itemsKey = key.rawValue
                break
            }
        }
    }

    /// Decodes a payload; `nil` when the bytes are not a JSON object.
    static func decode(_ data: Data) -> NewsPayload? {
        try? JSONDecoder().decode(NewsPayload.self, from: data)
    }

    /// Removes NewsAPI's truncation marker: "…cut here… [+1234 chars]" becomes "…cut here…".
    static func trimmingTruncationMarker(_ text: String) -> String {
        guard let range = text.range(of: #"\s*(…|\.\.\.)?\s*\[\+\d+ chars\]\s*$"#, options: .regularExpression) else {
            return text.trimmedWhitespace
        }
        let kept = text[..<range.lowerBound].trimmedWhitespace
        return kept.isEmpty ? "" : kept + "…"
    }

    /// The articles of these items: placeholders dropped, at most `limit`, newest first.
    static func articles(_ items: [Item], sourceID: String, limit: Int, categories: Bool, format: FeedFormat) -> [Article] {
        let feed = ParsedFeed(
            format: format, title: nil, homepage: nil,
            items: items.filter { !$0.isPlaceholder }.map { $0.feedItem(categories: categories) }
        )
        return feed.articles(sourceID: sourceID, base: nil, limit: limit)
    }
}

/// Any JSON value, decoded only to step over it.
private struct LooseValue: Decodable {
    /// Never fails: an element that failed (a number beyond Double, like 1e999) would leave the loop stuck on it.
    init(from decoder: Decoder) {
        guard let container = try? decoder.singleValueContainer() else { return }
        if container.decodeNil() { return }
        if (try? container.decode(Bool.self)) != nil { return }
        if (try? container.decode(Double.self)) != nil { return }
        if (try? container.decode(String.self)) != nil { return }
        if (try? container.decode([LooseValue].self)) != nil { return }
        _ = try? container.decode([String: LooseValue].self)
    }
}

private extension KeyedDecodingContainer {
    /// A string, or a number as a string (ids such as 155); `nil` for null, missing or other kinds.
    func loose(_ key: Key) -> String? {
        if let string = try? decodeIfPresent(String.self, forKey: key) { return string }
        if let integer = try? decodeIfPresent(Int.self, forKey: key) { return String(integer) }
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return String(number) }
        return nil
    }
}
