/// The XML namespaces newsgen reads and writes.
package enum Namespace {
    public static let atom = "http://www.w3.org/2005/Atom"
    public static let dublinCore = "http://purl.org/dc/elements/1.1/"
    public static let content = "http://purl.org/rss/1.0/modules/content/"
    public static let media = "http://search.yahoo.com/mrss/"
    public static let mediaAlternate = "http://search.yahoo.com/mrss"
    public static let rss1 = "http://purl.org/rss/1.0/"
    public static let rss090 = "http://my.netscape.com/rdf/simple/0.9/"
    public static let userland = "http://backend.userland.com/rss2"
    public static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    public static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    public static let xml = "http://www.w3.org/XML/1998/namespace"
    public static let xhtml = "http://www.w3.org/1999/xhtml"
    public static let dcTerms = "http://purl.org/dc/terms/"

    public static func isMedia(_ namespace: String?) -> Bool {
        namespace == media || namespace == mediaAlternate
    }
}
