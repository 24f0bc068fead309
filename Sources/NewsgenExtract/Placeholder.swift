// Placeholder for the extractor of branch extract59, replaced when it is merged (never on main).
public import Foundation
import NewsgenXML

public struct ArticleExtractor: Sendable {
    public init() {}

    public func extract(html: [UInt8], url: URL, declaredCharset: String? = nil) throws(ExtractionFailure) -> ExtractedArticle {
        let legacy = ["iso-8859-1", "windows-1252", "latin1"].contains(declaredCharset?.lowercased() ?? "")
        let page = legacy ? String(bytes: html, encoding: .windowsCP1252) ?? "" : String(decoding: html, as: UTF8.self)
        guard let start = page.range(of: "<article"), let end = page.range(of: "</article>"), start.upperBound < end.lowerBound,
              let open = page[start.upperBound...].firstIndex(of: ">"),
              let body = HTMLSanitizer.sanitize(html: String(page[page.index(after: open)..<end.lowerBound]), base: url.absoluteString)
        else { throw ExtractionFailure(reason: "The page has no article.") }
        let text = HTMLText.plainText(fromHTML: body)
        guard text.split(separator: " ").count >= 30 else { throw ExtractionFailure(reason: "The page's article is too short.") }
        return ExtractedArticle(html: body, text: text)
    }
}

public struct ExtractedArticle: Sendable, Hashable {
    public var title: String?
    public var byline: String?
    public var published: Date?
    public var siteName: String?
    public var image: URL?
    public var language: String?
    public var html: String
    public var text: String
}

public struct ExtractionFailure: Error, Sendable {
    public var reason: String
}
