import Foundation
import NewsgenModel
import NewsgenConfig
package import NewsgenRender

/// The fingerprint of everything a build's files are made from: newsgen's version, the theme and every value of
/// `SiteContent` that can reach a file. When it equals the recorded one and the output still holds exactly the recorded
/// files, the build stops before rendering. `SiteContent.generated` is left out: no file shows it.
///
/// Articles are fed through the digest each keeps of its fields (`Fingerprint.Hasher.add(digestOf:)`); the rest through
/// `Mirror`, so a field added to those types is fed without a change here. `InputFingerprintTests` checks Article's fields.
package enum InputFingerprint {
    /// `listed` must be what `content.sources` list (`ListedStories(content.sources)`, made once by the build).
    package static func of(_ content: SiteContent, templates: TemplateSet, listed: ListedStories? = nil) -> Fingerprint {
        var hasher = Fingerprint.Hasher()
        hasher.add("newsgen-input")
        hasher.add(NewsgenVersion.string)
        hasher.add(theme: templates)
        // How messages name site.json and its keys' places in it reach no file.
        var config = content.config
        config.displayPath = ""
        config.keyPositions = [:]
        hasher.add(reflecting: config)
        hasher.add(content.staticFiles.count)
        for file in content.staticFiles {
            hasher.add(file.path)
            hasher.add(file.data)
        }
        hasher.add(content.sources.count)
        for source in content.sources {
            hasher.add(reflecting: source.config)
            hasher.add(reflecting: source.status)
            hasher.add(source.name)
            hasher.add(source.homepage)
            hasher.add(reflecting: source.format as Any)
            hasher.add(articles: source.articles)
        }
        for saved in [content.favorites, content.readLater] {
            hasher.add(saved.count)
            for entry in saved {
                hasher.add(reflecting: entry.entry)
                hasher.add(entry.matched)
                hasher.add(digestOf: entry.article)
            }
        }
        // The cache's order of stories with equal dates is not fixed, and a story two sources list is stored as whichever
        // copy was written last. Pages sort and deduplicate, so an archived story equal to a listed one shows nothing of its
        // own: the archive is fed without those, in an order of its own.
        let unlisted = (listed ?? ListedStories(content.sources)).unlisted(in: content.archive)
        hasher.add(articles: unlisted.sorted {
            ($0.published ?? .distantPast, $0.id, $0.sourceID) > ($1.published ?? .distantPast, $1.id, $1.sourceID)
        })
        hasher.add(reflecting: content.newsapiSources as Any)
        hasher.add(reflecting: content.images)
        let groups = content.groups.all
        hasher.add(groups.count)
        for group in groups { hasher.add(group) }
        return hasher.finish()
    }
}

extension Fingerprint.Hasher {
    /// Any value, by its type's name and stored properties, recursively; dictionary keys and sets sorted, so the digest does
    /// not depend on hashing order.
    mutating func add(reflecting value: Any) {
        switch value {
        case let string as String: add(string)
        case let number as Int: add(number)
        case let bool as Bool: add(bool)
        case let number as Double:
            add("f")
            add(Int(truncatingIfNeeded: number.bitPattern))
        case let date as Date:
            add("t")
            add(date: date)
        case let url as URL:
            // A folder's file URL gains a "/" once the folder exists: its path without it names the folder.
            add("u")
            add(url.isFileURL ? url.standardizedFileURL.path : url.absoluteString)
        case let data as Data: add(data)
        default:
            let mirror = Mirror(reflecting: value)
            // The qualified name, as String(reflecting:) gives it, without its CustomDebugStringConvertible lookup.
            add(_typeName(type(of: value), qualified: true))
            switch mirror.displayStyle {
            case .optional:
                if let wrapped = mirror.children.first {
                    add(true)
                    add(reflecting: wrapped.value)
                } else {
                    add(false)
                }
            case .enum:
                if let payload = mirror.children.first {
                    add(payload.label ?? "")
                    add(reflecting: payload.value)
                } else {
                    add(String(describing: value))
                }
            case .dictionary, .set:
                // Sorted by each element's own digest: an order that does not depend on the process.
                let elements = mirror.children.map { child -> Fingerprint in
                    var element = Fingerprint.Hasher()
                    element.add(reflecting: child.value)
                    return element.finish()
                }
                add(elements.map(\.hex).sorted())
            default:
                add(Int(mirror.children.count))
                for child in mirror.children {
                    add(child.label ?? "")
                    add(reflecting: child.value)
                }
            }
        }
    }
}
