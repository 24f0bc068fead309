import Foundation
import NewsgenModel

/// What a page shows where it is shared (Open Graph, Twitter's card) and, on a story page, what it tells search engines
/// (JSON-LD `NewsArticle`). Data only: no script runs, so the Content-Security-Policy stays as it is.
struct ShareCard: Sendable {
    /// `website` for a tab, `article` for a story.
    var type: String
    var title: String
    var description: String?
    /// The page's own address.
    var url: String
    /// An absolute http(s) URL: the site's own copy under `"images": "local"`.
    var image: String?
    /// `summary_large_image` with an image, else `summary`.
    var twitterCard: String
    /// A story's `NewsArticle` as JSON that can sit in a `<script type="application/ld+json">` element of an XHTML page
    /// (`<`, `>` and `&` escaped); `nil` on tabs.
    var newsArticle: String?

    /// A tab's card: the page's title, its intro or the site's description.
    init(page title: String, description: String?, url: String) {
        type = "website"
        self.title = title
        self.description = description.flatMap { $0.isEmpty ? nil : $0 }
        self.url = url
        image = nil
        twitterCard = "summary"
        newsArticle = nil
    }

    /// A story's card. `publisher` is the outlet or source that published it.
    init(story article: Article, url: String, image: String?, publisher: String?, siteName: String) {
        type = "article"
        title = article.title
        description = article.summary.isEmpty ? nil : article.summary
        self.url = url
        self.image = image
        twitterCard = image == nil ? "summary" : "summary_large_image"
        newsArticle = Self.newsArticle(article, page: url, image: image, publisher: publisher ?? siteName)
    }

    /// schema.org `NewsArticle`: headline, dates, author, image, publisher, the page and the original.
    static func newsArticle(_ article: Article, page: String, image: String?, publisher: String) -> String {
        var json = JSONBytes(capacity: 512 + article.title.utf8.count + article.summary.utf8.count)
        var members = JSONBytes.Members()
        json.append("{")
        json.key("@context", in: &members)
        json.string("https://schema.org")
        json.key("@type", in: &members)
        json.string("NewsArticle")
        json.key("headline", in: &members)
        json.string(article.title)
        if !article.summary.isEmpty {
            json.key("description", in: &members)
            json.string(article.summary)
        }
        if let published = article.published {
            // The feed gives no time of change, so the story is as it was published.
            json.key("datePublished", in: &members)
            json.string(Dates.rfc3339(published))
            json.key("dateModified", in: &members)
            json.string(Dates.rfc3339(published))
        }
        if let author = article.author {
            json.key("author", in: &members)
            json.append("{\"@type\":\"Person\",\"name\":")
            json.string(author)
            json.append("}")
        }
        if let image {
            json.key("image", in: &members)
            json.strings([image])
        }
        json.key("publisher", in: &members)
        json.append("{\"@type\":\"Organization\",\"name\":")
        json.string(publisher)
        json.append("}")
        json.key("mainEntityOfPage", in: &members)
        json.string(page)
        if let original = article.url {
            json.key("url", in: &members)
            json.string(original)
        }
        json.append("}")
        return Self.scriptSafe(String(decoding: json.data(), as: UTF8.self))
    }

    /// JSON with `<`, `>` and `&` as `\u` escapes, which only occur inside its strings: the element's text can then
    /// neither end it (`</script>`) nor be read as markup by an XML parser.
    static func scriptSafe(_ json: String) -> String {
        var safe = ""
        safe.reserveCapacity(json.utf8.count)
        for character in json.unicodeScalars {
            switch character {
            case "<": safe += "\\u003c"
            case ">": safe += "\\u003e"
            case "&": safe += "\\u0026"
            default: safe.unicodeScalars.append(character)
            }
        }
        return safe
    }
}
