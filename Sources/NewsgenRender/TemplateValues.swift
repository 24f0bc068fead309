/// Turns a page model into `TemplateValue`s, once per page.
///
/// The models stay plain structs and are converted once, so that rendering never reflects on a
/// struct: the types every page repeats (article rows, times, links) by hand, the rest through
/// `Mirror`. `nil` values become `.null`, which Mustache treats as a missing name: the lookup
/// goes on up the context stack.
enum TemplateValues {
    static func convert(_ value: Any) -> TemplateValue {
        switch value {
        case let value as any TemplateConvertible: return .object(value.templateObject)
        case let string as String: return .string(string)
        case let bool as Bool: return .bool(bool)
        case let number as Int: return .int(number)
        case let rows as ArticleRows: return .lazyList(rows.templateList)
        case let array as [Any]: return .list(array.map(convert).filter { if case .null = $0 { false } else { true } })
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return .null }
            return convert(wrapped)
        case .struct, .class:
            var names: [String] = []
            var values: [TemplateValue] = []
            names.reserveCapacity(Int(mirror.children.count))
            values.reserveCapacity(Int(mirror.children.count))
            for child in mirror.children {
                guard let label = child.label else { continue }
                names.append(label)
                values.append(convert(child.value))
            }
            return .object(TemplateObject(names: names, values: values))
        default:
            return .string(String(describing: value))
        }
    }

    /// An optional model value: `.null` when absent.
    fileprivate static func optional(_ string: String?) -> TemplateValue {
        string.map(TemplateValue.string) ?? .null
    }
}

/// A model that builds its own object: for the values every page repeats (article rows, times,
/// links), which `Mirror` would reflect on once per page. Names must be the
/// stored properties' names, as `convert` would give them (a test checks).
protocol TemplateConvertible {
    var templateObject: TemplateObject { get }
}

/// The names of `Page`'s stored properties (a generic type has no static stored properties).
private let pageNames = ["site", "title", "heading", "intro", "root", "canonical", "card", "nav", "feeds", "updated", "content"]

/// Every page, and every article page's content, is converted by hand rather than through `Mirror`.
extension Page: TemplateConvertible {
    var templateObject: TemplateObject {
        TemplateObject(names: pageNames, values: [
            .object(site.templateObject), .string(title), .string(heading), TemplateValues.optional(intro),
            .string(root), .string(canonical), .object(card.templateObject), .list(nav.map { .object($0.templateObject) }),
            .list(feeds.map { .object($0.templateObject) }), updated.map { .object($0.templateObject) } ?? .null,
            TemplateValues.convert(content),
        ])
    }
}

extension ShareCard: TemplateConvertible {
    private static let names = ["type", "title", "description", "url", "image", "twitterCard", "newsArticle"]
    var templateObject: TemplateObject {
        TemplateObject(names: Self.names, values: [
            .string(type), .string(title), TemplateValues.optional(description), .string(url), TemplateValues.optional(image),
            .string(twitterCard), TemplateValues.optional(newsArticle),
        ])
    }
}

extension SiteModel: TemplateConvertible {
    private static let names = ["title", "description", "language", "version", "imageSources"]
    var templateObject: TemplateObject {
        TemplateObject(names: Self.names, values: [.string(title), .string(description), .string(language), .string(version), .string(imageSources)])
    }
}

extension ImageSetModel: TemplateConvertible {
    private static let names = ["srcset", "sizes", "width", "height"]
    var templateObject: TemplateObject {
        TemplateObject(names: Self.names, values: [.string(srcset), .string(sizes), .int(width), .int(height)])
    }
}

extension ArticleContent: TemplateConvertible {
    private static let names = ["article", "categories", "tags", "hasTags", "url", "domain", "body", "coverage", "hasCoverage"]
    var templateObject: TemplateObject {
        TemplateObject(names: Self.names, values: [
            .object(article.templateObject), .list(categories.map(TemplateValue.string)),
            .list(tags.map { .object($0.templateObject) }), .bool(hasTags), TemplateValues.optional(url),
            TemplateValues.optional(domain), TemplateValues.optional(body),
            .list(coverage.map { .object($0.templateObject) }), .bool(hasCoverage),
        ])
    }
}

extension CoverageLink: TemplateConvertible {
    private static let names = ["outlet", "title", "href", "time", "first"]
    var templateObject: TemplateObject {
        TemplateObject(names: Self.names, values: [
            .string(outlet), .string(title), .string(href), time.map { .object($0.templateObject) } ?? .null, .bool(first),
        ])
    }
}

extension TagLink: TemplateConvertible {
    private static let names = ["name", "href", "linked"]
    var templateObject: TemplateObject {
        TemplateObject(names: Self.names, values: [.string(name), .string(href), .bool(linked)])
    }
}

extension TimeModel: TemplateConvertible {
    private static let names = ["datetime", "text"]
    var templateObject: TemplateObject {
        TemplateObject(names: Self.names, values: [.string(datetime), .string(text)])
    }
}

extension NavItem: TemplateConvertible {
    private static let names = ["title", "href", "current", "section"]
    var templateObject: TemplateObject {
        TemplateObject(names: Self.names, values: [.string(title), .string(href), .bool(current), .bool(section)])
    }
}

extension FeedLinkModel: TemplateConvertible {
    private static let names = ["label", "title", "href", "type"]
    var templateObject: TemplateObject {
        TemplateObject(names: Self.names, values: [.string(label), .string(title), .string(href), .string(type)])
    }
}

extension ArticleRow: TemplateConvertible {
    private static let names = [
        "title", "href", "page", "summary", "author", "sourceName", "sourceHref", "outlet", "time", "image", "imageSet",
        "favorite", "readLater", "lead", "level", "savedAt", "note", "tags", "hasTags", "coverage", "hasCoverage",
    ]
    var templateObject: TemplateObject {
        TemplateObject(names: Self.names, values: [
            .string(title), .string(href), TemplateValues.optional(page), TemplateValues.optional(summary),
            TemplateValues.optional(author), TemplateValues.optional(sourceName), TemplateValues.optional(sourceHref),
            TemplateValues.optional(outlet), time.map { .object($0.templateObject) } ?? .null, TemplateValues.optional(image),
            imageSet.map { .object($0.templateObject) } ?? .null, .bool(favorite), .bool(readLater), .bool(lead), .int(level),
            savedAt.map { .object($0.templateObject) } ?? .null, TemplateValues.optional(note),
            .list(tags.map { .object($0.templateObject) }), .bool(hasTags),
            .list(coverage.map { .object($0.templateObject) }), .bool(hasCoverage),
        ])
    }
}
