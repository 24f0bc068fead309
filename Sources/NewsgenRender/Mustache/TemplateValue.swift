/// A value a template is given, made by `TemplateValues` once per page; typed, so a lookup is a switch, never a cast of `Any`.
enum TemplateValue: Sendable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case list([TemplateValue])
    case object(TemplateObject)
    /// A list whose items are made as the renderer reaches them (`LazyTemplateList`).
    indirect case lazyList(LazyTemplateList)
    /// A `nil` optional: a lookup finding it goes on up the context stack, as for a missing name, so objects keep fixed names.
    case null
}

/// Named values, in declaration order. Objects hold a dozen names or fewer, so a scan beats hashing; hand-converted types
/// share one array of names between all their values.
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

/// A list whose items are made one at a time as the renderer reaches them, and whose fingerprint is fed from what the
/// items are made of: a list page's rows are never all held at once, and an unchanged page is carried without building one.
struct LazyTemplateList: Sendable {
    let count: Int
    /// The item at an index, `0..<count`.
    let item: @Sendable (Int) -> TemplateValue
    /// Feeds everything the items are made of: two lists feeding the same values must make the same items.
    let feed: @Sendable (inout Fingerprint.Hasher) -> Void
}
