import NewsgenXML
/// The RELAX NG schemas builds check feeds, OPML and sitemaps against. Each `.rng` in `Schemas/` is the only copy,
/// embedded by Scripts/embed-files (`EmbeddedFiles.schemas`), as a release binary carries no resource bundle. Dates, id uniqueness and the
/// self link are left to `FeedRules`, whose messages are more precise.
enum Schemas {
    /// The schema files by the kind of file they check, with the name used in messages.
    static let files: [(kind: FileKind, file: String, name: String)] = [
        (.rss, "rss.rng", "RSS"), (.atom, "atom.rng", "Atom"), (.opml, "opml.rng", "OPML"), (.sitemap, "sitemap.rng", "sitemap"),
    ]

    /// The schemas, compiled once per process, all together before any validation: libxml2 sets up its datatype
    /// library on the first compile, which must not race.
    static let compiled: [FileKind: Result<LibXML.RelaxNGSchema, RelaxNGSchemaError>] = {
        var schemas: [FileKind: Result<LibXML.RelaxNGSchema, RelaxNGSchemaError>] = [:]
        for (kind, file, name) in files {
            schemas[kind] = Result { () throws(RelaxNGSchemaError) in
                guard let text = EmbeddedFiles.schemas[file] else {
                    throw RelaxNGSchemaError(name: name, messages: ["\(file) was not embedded into this build of newsgen"])
                }
                return try LibXML.RelaxNGSchema(text: text, name: name)
            }
        }
        return schemas
    }()
}
