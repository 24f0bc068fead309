import NewsgenXML
/// The RELAX NG schemas (XML syntax) that every build checks its feeds, OPML and sitemap
/// against. Each is a `.rng` file in `Sources/NewsgenValidate/Schemas/`, the only copy, embedded into the
/// binary at build time by the EmbedFiles plugin: a release binary copied to /usr/local/bin
/// carries no resource bundle.
///
/// Dates, id uniqueness and the self link are left to the rules in `FeedRules`, which can say
/// more precisely what is wrong than a schema failure can.
enum Schemas {
    /// The schema files by the kind of file they check, with the name used in messages.
    static let files: [(kind: FileKind, file: String, name: String)] = [
        (.rss, "rss.rng", "RSS"), (.atom, "atom.rng", "Atom"), (.opml, "opml.rng", "OPML"), (.sitemap, "sitemap.rng", "sitemap"),
    ]

    /// The schemas a validation uses, each compiled once per process. They are compiled all
    /// together, on first use, before any validation: libxml2 sets up its datatype library on
    /// the first compile, which must not race.
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
