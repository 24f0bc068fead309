public import Foundation

/// One source NewsAPI offers, from `top-headlines/sources`.
public struct NewsAPISource: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var description: String
    /// The outlet's website.
    public var url: String?
    public var category: String
    public var language: String
    public var country: String

    public init(id: String, name: String, description: String = "", url: String? = nil, category: String = "", language: String = "", country: String = "") {
        self.id = id
        self.name = name
        self.description = description
        self.url = url
        self.category = category
        self.language = language
        self.country = country
    }
}

/// NewsAPI's list of sources in one language, as fetched at a time; the form of the cache file.
public struct NewsAPISourceList: Sendable, Codable {
    public var fetchedAt: Date
    public var language: String
    public var sources: [NewsAPISource]

    public init(fetchedAt: Date, language: String, sources: [NewsAPISource]) {
        self.fetchedAt = fetchedAt
        self.language = language
        self.sources = sources
    }
}
