/// A value a template is given: what `TemplateValues` makes of a page model, once per page.
///
/// Typed, so that a lookup while rendering is a switch and a comparison of names, never a
/// dynamic cast of `Any`.
enum TemplateValue: Sendable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case list([TemplateValue])
    case object(TemplateObject)
    /// A list whose items are made as the renderer reaches them (`LazyTemplateList`).
    indirect case lazyList(LazyTemplateList)
    /// A `nil` optional: a lookup that finds it goes on up the context stack, as one that finds
    /// no such name does, so objects can keep one fixed list of names.
    case null
}

/// Named values, in the order the model declares them. Objects hold a dozen names or fewer, so
/// a scan of the names is cheaper than hashing one; types converted by hand share one array of
/// names between all their values.
struct TemplateObject: Sendable {
    let names: [String]
    let values: [TemplateValue]

    init(names: [String], values: [TemplateValue]) {
        precondition(names.count == values.count, "a template object needs one value per name")
        self.names = names
        self.values = values
    }

    /// The value of `name`; `nil` when there is none or it is `.null`.
    subscript(name: String) -> TemplateValue? {
        for index in names.indices where names[index] == name {
            if case .null = values[index] { return nil }
            return values[index]
        }
        return nil
    }
}

/// A list whose items are made one at a time, as the renderer reaches them, and whose
/// fingerprint is fed from what the items are made of rather than from the items.
///
/// A list page's rows are its bulk: an archive day can hold tens of thousands. Made lazily, they
/// are never all held at once while the page renders, and a page whose rows' inputs did not
/// change is carried without one row being built.
struct LazyTemplateList: Sendable {
    let count: Int
    /// The item at an index, `0..<count`.
    let item: @Sendable (Int) -> TemplateValue
    /// Feeds everything the items are made of: two lists that feed the same values must make
    /// the same items.
    let feed: @Sendable (inout Fingerprint.Hasher) -> Void
}
