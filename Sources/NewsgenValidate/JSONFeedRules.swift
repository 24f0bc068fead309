import NewsgenModel
import NewsgenXML
/// The rules of a JSON Feed 1.1 (https://jsonfeed.org/version/1.1): required fields, the type
/// of every field the spec defines, unique item ids, the self link, and no character that
/// XML forbids (readers put these strings into XML and HTML).
struct JSONFeedRules {
    let feed: FeedRules

    private enum Kind {
        case string, url, date, bool, number, strings, authors, author, hubs, attachments

        var name: String {
            switch self {
            case .string: "a string"
            case .url: "a URL string"
            case .date: "an RFC 3339 date string"
            case .bool: "true or false"
            case .number: "a number"
            case .strings: "an array of strings"
            case .authors: "an array of author objects"
            case .author: "an author object"
            case .hubs: "an array of hub objects"
            case .attachments: "an array of attachment objects"
            }
        }
    }

    private static let feedFields: [String: Kind] = [
        "home_page_url": .url, "feed_url": .url, "description": .string, "user_comment": .string,
        "next_url": .url, "icon": .url, "favicon": .url, "authors": .authors, "author": .author,
        "language": .string, "expired": .bool, "hubs": .hubs,
    ]
    private static let itemFields: [String: Kind] = [
        "url": .url, "external_url": .url, "title": .string, "content_html": .string, "content_text": .string,
        "summary": .string, "image": .url, "banner_image": .url, "date_published": .date, "date_modified": .date,
        "authors": .authors, "author": .author, "tags": .strings, "language": .string, "attachments": .attachments,
    ]

    func check(_ root: JSONNode, into problems: inout FileProblems) {
        checkCharacters(root, at: "", into: &problems)
        guard case .object = root.value else {
            problems.add(.jsonFeedRequired, "a JSON Feed is an object, not \(root.kindName)", offset: root.offset)
            return
        }
        if let version = root["version"] {
            if !(version.string?.hasPrefix("https://jsonfeed.org/version/1") ?? false) {
                problems.add(.jsonFeedRequired, "version must be \"https://jsonfeed.org/version/1.1\"", offset: version.offset)
            }
        } else {
            problems.add(.jsonFeedRequired, "the feed has no version (\"https://jsonfeed.org/version/1.1\")", offset: root.offset)
        }
        requireNonEmptyString("title", in: root, owner: "the feed", into: &problems)
        checkFields(root, Self.feedFields, at: "", into: &problems)
        if let feedURL = root["feed_url"]?.string, let problem = feed.selfURLProblem(feedURL) {
            problems.add(.feedSelfLink, "feed_url \(problem)", offset: root["feed_url"]?.offset ?? root.offset)
        }

        guard let items = root["items"] else {
            problems.add(.jsonFeedRequired, "the feed has no items array", offset: root.offset)
            return
        }
        guard case .array(let list) = items.value else {
            problems.add(.jsonFeedRequired, "items must be an array, not \(items.kindName)", offset: items.offset)
            return
        }
        var ids: [String: Int] = [:]
        for (index, item) in list.enumerated() {
            let owner = "items[\(index)]"
            guard case .object = item.value else {
                problems.add(.jsonFeedRequired, "\(owner) must be an object, not \(item.kindName)", offset: item.offset)
                continue
            }
            if let id = requireNonEmptyString("id", in: item, owner: owner, into: &problems) {
                if let first = ids[id] {
                    problems.add(.jsonFeedIDUnique, "\(owner).id \"\(id)\" is already the id of items[\(first)]", offset: item["id"]?.offset ?? item.offset)
                } else {
                    ids[id] = index
                }
            }
            if item["content_html"] == nil && item["content_text"] == nil {
                problems.add(.jsonFeedRequired, "\(owner) has neither content_html nor content_text; one is required", offset: item.offset)
            }
            checkFields(item, Self.itemFields, at: owner + ".", into: &problems)
        }
    }

    /// The value of a required non-empty string member, reporting it when missing or not one.
    @discardableResult
    private func requireNonEmptyString(_ key: String, in object: JSONNode, owner: String, into problems: inout FileProblems) -> String? {
        guard let value = object[key] else {
            problems.add(.jsonFeedRequired, "\(owner) has no \(key)", offset: object.offset)
            return nil
        }
        guard let text = value.string, !text.trimmedWhitespace.isEmpty else {
            let what = value.string == nil ? value.kindName : "empty"
            problems.add(.jsonFeedRequired, "\(owner == "the feed" ? "" : owner + ".")\(key) must be a non-empty string, not \(what)", offset: value.offset)
            return nil
        }
        return text
    }

    private func checkFields(_ object: JSONNode, _ fields: [String: Kind], at prefix: String, into problems: inout FileProblems) {
        guard case .object(let members) = object.value else { return }
        for member in members {
            guard let kind = fields[member.key] else { continue }
            check(member.value, is: kind, name: prefix + member.key, into: &problems)
        }
    }

    private func check(_ value: JSONNode, is kind: Kind, name: String, into problems: inout FileProblems) {
        func wrong(_ detail: String? = nil) {
            problems.add(.jsonFeedType, "\(name) must be \(kind.name), not \(detail ?? value.kindName)", offset: value.offset)
        }
        switch kind {
        case .string:
            if value.string == nil { wrong() }
        case .url:
            guard let text = value.string else { return wrong() }
            if text.isEmpty || Text.containsASCIIWhitespace(text) { wrong("\"\(text)\"") }
        case .date:
            guard let text = value.string else { return wrong() }
            if let problem = Dates.rfc3339Problem(text, uppercaseOnly: false) {
                problems.add(.jsonFeedType, "\(name) \"\(text)\" \(problem)", offset: value.offset)
            }
        case .bool:
            if case .bool = value.value {} else { wrong() }
        case .number:
            if case .number = value.value {} else { wrong() }
        case .strings:
            guard case .array(let elements) = value.value else { return wrong() }
            for (index, element) in elements.enumerated() where element.string == nil {
                problems.add(.jsonFeedType, "\(name)[\(index)] must be a string, not \(element.kindName)", offset: element.offset)
            }
        case .author:
            guard case .object = value.value else { return wrong() }
            checkFields(value, ["name": .string, "url": .url, "avatar": .url], at: name + ".", into: &problems)
        case .authors:
            guard case .array(let elements) = value.value else { return wrong() }
            for (index, element) in elements.enumerated() { check(element, is: .author, name: "\(name)[\(index)]", into: &problems) }
        case .hubs:
            guard case .array(let elements) = value.value else { return wrong() }
            for (index, element) in elements.enumerated() {
                let hub = "\(name)[\(index)]"
                guard case .object = element.value else {
                    problems.add(.jsonFeedType, "\(hub) must be a hub object, not \(element.kindName)", offset: element.offset)
                    continue
                }
                requireNonEmptyString("type", in: element, owner: hub, into: &problems)
                requireNonEmptyString("url", in: element, owner: hub, into: &problems)
            }
        case .attachments:
            guard case .array(let elements) = value.value else { return wrong() }
            for (index, element) in elements.enumerated() {
                let attachment = "\(name)[\(index)]"
                guard case .object = element.value else {
                    problems.add(.jsonFeedType, "\(attachment) must be an attachment object, not \(element.kindName)", offset: element.offset)
                    continue
                }
                requireNonEmptyString("url", in: element, owner: attachment, into: &problems)
                requireNonEmptyString("mime_type", in: element, owner: attachment, into: &problems)
                checkFields(element, ["title": .string, "size_in_bytes": .number, "duration_in_seconds": .number], at: attachment + ".", into: &problems)
            }
        }
    }

    /// Every string (and member name) holds only characters XML allows.
    private func checkCharacters(_ node: JSONNode, at name: String, into problems: inout FileProblems) {
        switch node.value {
        case .string(let text):
            if let bad = text.unicodeScalars.first(where: { !Text.isAllowedInXML($0) }) {
                let code = "U+" + String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4)
                problems.add(.xmlForbiddenChar, "\(name.isEmpty ? "the value" : name) holds \(code), a character XML forbids", offset: node.offset)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() { checkCharacters(element, at: "\(name)[\(index)]", into: &problems) }
        case .object(let members):
            for member in members {
                let path = name.isEmpty ? member.key : "\(name).\(member.key)"
                checkCharacters(JSONNode(value: .string(member.key), offset: member.value.offset), at: path + " (its name)", into: &problems)
                checkCharacters(member.value, at: path, into: &problems)
            }
        case .number, .bool, .null:
            break
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
