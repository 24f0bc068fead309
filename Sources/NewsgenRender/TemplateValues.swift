/// Turns a page model into dictionaries and arrays, once per page.
///
/// swift-mustache reads a struct through `Mirror` on every variable lookup, for every object
/// on the context stack; on a 10,000-article site that was more than half of the build. A
/// `[String: Any]` is read by key (`MustacheParent`), so the models stay plain structs and the
/// reflection happens once per value instead of once per lookup. `nil` values are left out, as
/// Mustache treats a missing name: the lookup goes on up the context stack.
enum TemplateValues {
    static func convert(_ value: Any) -> Any? {
        switch value {
        case let value as any TemplateDictionary: return value.templateDictionary
        case let string as String: return string
        case let bool as Bool: return bool
        case let number as Int: return number
        case let array as [Any]: return array.compactMap(convert)
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return nil }
            return convert(wrapped)
        case .struct, .class:
            var dictionary: [String: Any] = [:]
            dictionary.reserveCapacity(Int(mirror.children.count))
            for child in mirror.children {
                if let label = child.label, let converted = convert(child.value) {
                    dictionary[label] = converted
                }
            }
            return dictionary
        default:
            return value
        }
    }
}

/// A model that builds its own dictionary: for the values every page repeats (article rows,
/// times, links), where reflecting each one was still a tenth of a large build.
/// Keys must be the stored properties' names, as `convert` would give them.
protocol TemplateDictionary {
    var templateDictionary: [String: Any] { get }
}

extension TimeModel: TemplateDictionary {
    var templateDictionary: [String: Any] { ["datetime": datetime, "text": text] }
}

extension NavItem: TemplateDictionary {
    var templateDictionary: [String: Any] { ["title": title, "href": href, "current": current, "section": section] }
}

extension FeedLinkModel: TemplateDictionary {
    var templateDictionary: [String: Any] { ["label": label, "title": title, "href": href, "type": type] }
}

extension ArticleRow: TemplateDictionary {
    var templateDictionary: [String: Any] {
        var values: [String: Any] = [
            "title": title, "href": href,
            "favorite": favorite, "readLater": readLater, "lead": lead, "level": level,
        ]
        values["page"] = page
        values["summary"] = summary
        values["author"] = author
        values["sourceName"] = sourceName
        values["sourceHref"] = sourceHref
        values["outlet"] = outlet
        values["time"] = time?.templateDictionary
        values["image"] = image
        values["savedAt"] = savedAt?.templateDictionary
        values["note"] = note
        values["tags"] = tags.compactMap(TemplateValues.convert)
        values["hasTags"] = hasTags
        return values
    }
}
