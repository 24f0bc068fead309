/// The RELAX NG schemas (XML syntax) that every build checks its feeds, OPML and sitemap against.
///
/// They live here, as string literals, rather than as `.rng` resources: a release binary
/// copied to /usr/local/bin carries no resource bundle (and SwiftPM's `Bundle.module` stops the
/// process when the bundle is missing), while text compiled into the binary is always there.
/// This file is the only copy of each schema.
///
/// Dates, id uniqueness and the self link are left to the rules in `FeedRules`, which can say
/// more precisely what is wrong than a schema failure can.
enum Schemas {
    /// RSS 2.0 (https://www.rssboard.org/rss-specification), with the extensions newsgen writes:
    /// `atom:link` (rel=self), Dublin Core, Media RSS and `content:encoded`. Elements of any
    /// other namespace are rejected, so a writer change that adds one must come here first.
    static let rss = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <grammar xmlns="http://relaxng.org/ns/structure/1.0"
             datatypeLibrary="http://www.w3.org/2001/XMLSchema-datatypes">
      <start>
        <element name="rss">
          <attribute name="version"><value>2.0</value></attribute>
          <element name="channel">
            <interleave>
              <element name="title"><ref name="nonEmptyText"/></element>
              <element name="link"><ref name="httpURL"/></element>
              <element name="description"><text/></element>
              <optional><element name="language"><ref name="languageTag"/></element></optional>
              <optional><element name="copyright"><text/></element></optional>
              <optional><element name="managingEditor"><text/></element></optional>
              <optional><element name="webMaster"><text/></element></optional>
              <optional><element name="pubDate"><text/></element></optional>
              <optional><element name="lastBuildDate"><text/></element></optional>
              <zeroOrMore><ref name="category"/></zeroOrMore>
              <optional><element name="generator"><text/></element></optional>
              <optional><element name="docs"><ref name="url"/></element></optional>
              <optional><ref name="cloud"/></optional>
              <optional><element name="ttl"><data type="nonNegativeInteger"/></element></optional>
              <optional><ref name="image"/></optional>
              <optional><element name="rating"><text/></element></optional>
              <optional><ref name="textInput"/></optional>
              <optional><ref name="skipHours"/></optional>
              <optional><ref name="skipDays"/></optional>
              <oneOrMore><ref name="atomLink"/></oneOrMore>
              <zeroOrMore><ref name="item"/></zeroOrMore>
            </interleave>
          </element>
        </element>
      </start>

      <define name="item">
        <element name="item">
          <interleave>
            <!-- "All elements of an item are optional, however at least one of title or
                 description must be present." -->
            <choice>
              <interleave>
                <element name="title"><ref name="nonEmptyText"/></element>
                <optional><element name="description"><text/></element></optional>
              </interleave>
              <element name="description"><ref name="nonEmptyText"/></element>
            </choice>
            <optional><element name="link"><ref name="httpURL"/></element></optional>
            <optional><element name="author"><text/></element></optional>
            <zeroOrMore><ref name="category"/></zeroOrMore>
            <optional><element name="comments"><ref name="url"/></element></optional>
            <optional><ref name="enclosure"/></optional>
            <optional>
              <element name="guid">
                <optional>
                  <attribute name="isPermaLink"><choice><value>true</value><value>false</value></choice></attribute>
                </optional>
                <ref name="nonEmptyText"/>
              </element>
            </optional>
            <optional><element name="pubDate"><text/></element></optional>
            <optional>
              <element name="source">
                <attribute name="url"><ref name="url"/></attribute>
                <text/>
              </element>
            </optional>
            <zeroOrMore><ref name="dublinCore"/></zeroOrMore>
            <zeroOrMore><ref name="media"/></zeroOrMore>
            <optional>
              <element name="encoded" ns="http://purl.org/rss/1.0/modules/content/"><text/></element>
            </optional>
          </interleave>
        </element>
      </define>

      <define name="category">
        <element name="category">
          <optional><attribute name="domain"><text/></attribute></optional>
          <text/>
        </element>
      </define>

      <define name="enclosure">
        <element name="enclosure">
          <attribute name="url"><ref name="httpURL"/></attribute>
          <attribute name="length"><data type="nonNegativeInteger"/></attribute>
          <attribute name="type"><ref name="mediaType"/></attribute>
          <empty/>
        </element>
      </define>

      <define name="cloud">
        <element name="cloud">
          <attribute name="domain"><text/></attribute>
          <attribute name="port"><data type="nonNegativeInteger"/></attribute>
          <attribute name="path"><text/></attribute>
          <attribute name="registerProcedure"><text/></attribute>
          <attribute name="protocol"><text/></attribute>
          <empty/>
        </element>
      </define>

      <define name="image">
        <element name="image">
          <interleave>
            <element name="url"><ref name="httpURL"/></element>
            <element name="title"><text/></element>
            <element name="link"><ref name="httpURL"/></element>
            <optional><element name="width"><data type="positiveInteger"><param name="maxInclusive">144</param></data></element></optional>
            <optional><element name="height"><data type="positiveInteger"><param name="maxInclusive">400</param></data></element></optional>
            <optional><element name="description"><text/></element></optional>
          </interleave>
        </element>
      </define>

      <define name="textInput">
        <element name="textInput">
          <interleave>
            <element name="title"><text/></element>
            <element name="description"><text/></element>
            <element name="name"><text/></element>
            <element name="link"><ref name="url"/></element>
          </interleave>
        </element>
      </define>

      <define name="skipHours">
        <element name="skipHours">
          <oneOrMore>
            <element name="hour">
              <data type="nonNegativeInteger"><param name="maxInclusive">23</param></data>
            </element>
          </oneOrMore>
        </element>
      </define>

      <define name="skipDays">
        <element name="skipDays">
          <oneOrMore>
            <element name="day">
              <choice>
                <value>Monday</value><value>Tuesday</value><value>Wednesday</value><value>Thursday</value>
                <value>Friday</value><value>Saturday</value><value>Sunday</value>
              </choice>
            </element>
          </oneOrMore>
        </element>
      </define>

      <define name="atomLink">
        <element name="link" ns="http://www.w3.org/2005/Atom">
          <attribute name="href"><ref name="httpURL"/></attribute>
          <optional><attribute name="rel"><text/></attribute></optional>
          <optional><attribute name="type"><ref name="mediaType"/></attribute></optional>
          <optional><attribute name="hreflang"><ref name="languageTag"/></attribute></optional>
          <optional><attribute name="title"><text/></attribute></optional>
          <optional><attribute name="length"><data type="nonNegativeInteger"/></attribute></optional>
          <empty/>
        </element>
      </define>

      <define name="dublinCore">
        <element>
          <nsName ns="http://purl.org/dc/elements/1.1/"/>
          <text/>
        </element>
      </define>

      <define name="media">
        <choice>
          <element name="thumbnail" ns="http://search.yahoo.com/mrss/">
            <attribute name="url"><ref name="httpURL"/></attribute>
            <optional><attribute name="width"><data type="nonNegativeInteger"/></attribute></optional>
            <optional><attribute name="height"><data type="nonNegativeInteger"/></attribute></optional>
            <optional><attribute name="time"><text/></attribute></optional>
            <empty/>
          </element>
          <element name="content" ns="http://search.yahoo.com/mrss/">
            <optional><attribute name="url"><ref name="httpURL"/></attribute></optional>
            <zeroOrMore>
              <attribute>
                <anyName><except><name ns="">url</name></except></anyName>
                <text/>
              </attribute>
            </zeroOrMore>
            <zeroOrMore><ref name="mediaChild"/></zeroOrMore>
          </element>
        </choice>
      </define>

      <define name="mediaChild">
        <element>
          <nsName ns="http://search.yahoo.com/mrss/"/>
          <zeroOrMore><attribute><anyName/><text/></attribute></zeroOrMore>
          <zeroOrMore><choice><text/><ref name="mediaChild"/></choice></zeroOrMore>
        </element>
      </define>

      <define name="nonEmptyText">
        <data type="token"><param name="minLength">1</param></data>
      </define>

      <define name="url">
        <data type="anyURI"/>
      </define>

      <define name="httpURL">
        <data type="anyURI"><param name="pattern">[Hh][Tt][Tt][Pp][Ss]?://\S+</param></data>
      </define>

      <define name="mediaType">
        <data type="token"><param name="pattern">[^/\s]+/[^/\s]+</param></data>
      </define>

      <define name="languageTag">
        <data type="token"><param name="pattern">[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*</param></data>
      </define>
    </grammar>
    """#

    /// Atom 1.0, after the informative schema of RFC 4287 (appendix B), with dates and ids
    /// as plain text (the `atom-date` and `atom-id-unique` rules check them).
    static let atom = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <grammar xmlns="http://relaxng.org/ns/structure/1.0"
             datatypeLibrary="http://www.w3.org/2001/XMLSchema-datatypes"
             ns="http://www.w3.org/2005/Atom">
      <start>
        <choice>
          <ref name="atomFeed"/>
          <ref name="atomEntry"/>
        </choice>
      </start>

      <define name="atomFeed">
        <element name="feed">
          <ref name="commonAttributes"/>
          <interleave>
            <zeroOrMore><ref name="atomAuthor"/></zeroOrMore>
            <zeroOrMore><ref name="atomCategory"/></zeroOrMore>
            <zeroOrMore><ref name="atomContributor"/></zeroOrMore>
            <optional><ref name="atomGenerator"/></optional>
            <optional><element name="icon"><ref name="commonAttributes"/><ref name="uri"/></element></optional>
            <ref name="atomId"/>
            <zeroOrMore><ref name="atomLink"/></zeroOrMore>
            <optional><element name="logo"><ref name="commonAttributes"/><ref name="uri"/></element></optional>
            <optional><element name="rights"><ref name="textConstruct"/></element></optional>
            <optional><element name="subtitle"><ref name="textConstruct"/></element></optional>
            <element name="title"><ref name="textConstruct"/></element>
            <element name="updated"><ref name="dateConstruct"/></element>
            <zeroOrMore><ref name="extensionElement"/></zeroOrMore>
          </interleave>
          <zeroOrMore><ref name="atomEntry"/></zeroOrMore>
        </element>
      </define>

      <define name="atomEntry">
        <element name="entry">
          <ref name="commonAttributes"/>
          <interleave>
            <zeroOrMore><ref name="atomAuthor"/></zeroOrMore>
            <zeroOrMore><ref name="atomCategory"/></zeroOrMore>
            <optional><ref name="atomContent"/></optional>
            <zeroOrMore><ref name="atomContributor"/></zeroOrMore>
            <ref name="atomId"/>
            <zeroOrMore><ref name="atomLink"/></zeroOrMore>
            <optional><element name="published"><ref name="dateConstruct"/></element></optional>
            <optional><element name="rights"><ref name="textConstruct"/></element></optional>
            <optional><ref name="atomSource"/></optional>
            <optional><element name="summary"><ref name="textConstruct"/></element></optional>
            <element name="title"><ref name="textConstruct"/></element>
            <element name="updated"><ref name="dateConstruct"/></element>
            <zeroOrMore><ref name="extensionElement"/></zeroOrMore>
          </interleave>
        </element>
      </define>

      <define name="atomSource">
        <element name="source">
          <ref name="commonAttributes"/>
          <interleave>
            <zeroOrMore><ref name="atomAuthor"/></zeroOrMore>
            <zeroOrMore><ref name="atomCategory"/></zeroOrMore>
            <zeroOrMore><ref name="atomContributor"/></zeroOrMore>
            <optional><ref name="atomGenerator"/></optional>
            <optional><element name="icon"><ref name="commonAttributes"/><ref name="uri"/></element></optional>
            <optional><ref name="atomId"/></optional>
            <zeroOrMore><ref name="atomLink"/></zeroOrMore>
            <optional><element name="logo"><ref name="commonAttributes"/><ref name="uri"/></element></optional>
            <optional><element name="rights"><ref name="textConstruct"/></element></optional>
            <optional><element name="subtitle"><ref name="textConstruct"/></element></optional>
            <optional><element name="title"><ref name="textConstruct"/></element></optional>
            <optional><element name="updated"><ref name="dateConstruct"/></element></optional>
            <zeroOrMore><ref name="extensionElement"/></zeroOrMore>
          </interleave>
        </element>
      </define>

      <define name="atomId">
        <element name="id"><ref name="commonAttributes"/><ref name="uri"/></element>
      </define>

      <define name="atomAuthor">
        <element name="author"><ref name="personConstruct"/></element>
      </define>

      <define name="atomContributor">
        <element name="contributor"><ref name="personConstruct"/></element>
      </define>

      <define name="personConstruct">
        <ref name="commonAttributes"/>
        <interleave>
          <element name="name"><text/></element>
          <optional><element name="uri"><ref name="uri"/></element></optional>
          <optional>
            <element name="email"><data type="string"><param name="pattern">.+@.+</param></data></element>
          </optional>
          <zeroOrMore><ref name="extensionElement"/></zeroOrMore>
        </interleave>
      </define>

      <define name="atomCategory">
        <element name="category">
          <ref name="commonAttributes"/>
          <attribute name="term" ns=""><text/></attribute>
          <optional><attribute name="scheme" ns=""><ref name="uri"/></attribute></optional>
          <optional><attribute name="label" ns=""><text/></attribute></optional>
          <ref name="undefinedContent"/>
        </element>
      </define>

      <define name="atomGenerator">
        <element name="generator">
          <ref name="commonAttributes"/>
          <optional><attribute name="uri" ns=""><ref name="uri"/></attribute></optional>
          <optional><attribute name="version" ns=""><text/></attribute></optional>
          <text/>
        </element>
      </define>

      <define name="atomLink">
        <element name="link">
          <ref name="commonAttributes"/>
          <attribute name="href" ns=""><ref name="uri"/></attribute>
          <optional><attribute name="rel" ns=""><data type="token"><param name="minLength">1</param></data></attribute></optional>
          <optional><attribute name="type" ns=""><ref name="mediaType"/></attribute></optional>
          <optional><attribute name="hreflang" ns=""><ref name="languageTag"/></attribute></optional>
          <optional><attribute name="title" ns=""><text/></attribute></optional>
          <optional><attribute name="length" ns=""><text/></attribute></optional>
          <ref name="undefinedContent"/>
        </element>
      </define>

      <define name="atomContent">
        <element name="content">
          <ref name="commonAttributes"/>
          <choice>
            <group>
              <optional>
                <attribute name="type" ns=""><choice><value>text</value><value>html</value></choice></attribute>
              </optional>
              <text/>
            </group>
            <group>
              <attribute name="type" ns=""><value>xhtml</value></attribute>
              <ref name="xhtmlDiv"/>
            </group>
            <group>
              <attribute name="type" ns=""><ref name="mediaType"/></attribute>
              <attribute name="src" ns=""><ref name="uri"/></attribute>
              <empty/>
            </group>
            <group>
              <attribute name="type" ns=""><ref name="mediaType"/></attribute>
              <zeroOrMore><choice><text/><ref name="anyElement"/></choice></zeroOrMore>
            </group>
          </choice>
        </element>
      </define>

      <define name="textConstruct">
        <ref name="commonAttributes"/>
        <choice>
          <group>
            <optional>
              <attribute name="type" ns=""><choice><value>text</value><value>html</value></choice></attribute>
            </optional>
            <text/>
          </group>
          <group>
            <attribute name="type" ns=""><value>xhtml</value></attribute>
            <ref name="xhtmlDiv"/>
          </group>
        </choice>
      </define>

      <define name="dateConstruct">
        <ref name="commonAttributes"/>
        <text/>
      </define>

      <define name="commonAttributes">
        <optional><attribute name="xml:base"><ref name="uri"/></attribute></optional>
        <optional><attribute name="xml:lang"><choice><ref name="languageTag"/><value></value></choice></attribute></optional>
        <zeroOrMore>
          <attribute>
            <anyName>
              <except>
                <name ns="http://www.w3.org/XML/1998/namespace">base</name>
                <name ns="http://www.w3.org/XML/1998/namespace">lang</name>
                <nsName ns=""/>
              </except>
            </anyName>
            <text/>
          </attribute>
        </zeroOrMore>
      </define>

      <define name="extensionElement">
        <element>
          <anyName><except><nsName/></except></anyName>
          <zeroOrMore><choice><attribute><anyName/><text/></attribute><text/><ref name="anyElement"/></choice></zeroOrMore>
        </element>
      </define>

      <define name="undefinedContent">
        <zeroOrMore><choice><text/><ref name="extensionElement"/></choice></zeroOrMore>
      </define>

      <define name="anyElement">
        <element>
          <anyName/>
          <zeroOrMore><choice><attribute><anyName/><text/></attribute><text/><ref name="anyElement"/></choice></zeroOrMore>
        </element>
      </define>

      <define name="xhtmlDiv">
        <element name="div" ns="http://www.w3.org/1999/xhtml">
          <zeroOrMore><choice><attribute><anyName/><text/></attribute><text/><ref name="anyXHTML"/></choice></zeroOrMore>
        </element>
      </define>

      <define name="anyXHTML">
        <element>
          <nsName ns="http://www.w3.org/1999/xhtml"/>
          <zeroOrMore><choice><attribute><anyName/><text/></attribute><text/><ref name="anyXHTML"/></choice></zeroOrMore>
        </element>
      </define>

      <define name="uri">
        <data type="anyURI"/>
      </define>

      <define name="mediaType">
        <data type="token"><param name="pattern">[^/\s]+/[^/\s]+</param></data>
      </define>

      <define name="languageTag">
        <data type="token"><param name="pattern">[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*</param></data>
      </define>
    </grammar>
    """#

    /// OPML 2.0 (http://opml.org/spec2.opml): a head, and a body of outlines; an outline of
    /// type rss must have an xmlUrl.
    static let opml = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <grammar xmlns="http://relaxng.org/ns/structure/1.0"
             datatypeLibrary="http://www.w3.org/2001/XMLSchema-datatypes">
      <start>
        <element name="opml">
          <attribute name="version"><value>2.0</value></attribute>
          <element name="head">
            <interleave>
              <optional><element name="title"><text/></element></optional>
              <optional><element name="dateCreated"><text/></element></optional>
              <optional><element name="dateModified"><text/></element></optional>
              <optional><element name="ownerName"><text/></element></optional>
              <optional><element name="ownerEmail"><text/></element></optional>
              <optional><element name="ownerId"><data type="anyURI"/></element></optional>
              <optional><element name="docs"><data type="anyURI"/></element></optional>
              <optional><element name="expansionState"><text/></element></optional>
              <optional><element name="vertScrollState"><data type="nonNegativeInteger"/></element></optional>
              <optional><element name="windowTop"><data type="integer"/></element></optional>
              <optional><element name="windowLeft"><data type="integer"/></element></optional>
              <optional><element name="windowBottom"><data type="integer"/></element></optional>
              <optional><element name="windowRight"><data type="integer"/></element></optional>
            </interleave>
          </element>
          <element name="body">
            <oneOrMore><ref name="outline"/></oneOrMore>
          </element>
        </element>
      </start>

      <define name="outline">
        <element name="outline">
          <attribute name="text"><text/></attribute>
          <choice>
            <group>
              <attribute name="type"><value>rss</value></attribute>
              <attribute name="xmlUrl"><ref name="httpURL"/></attribute>
              <optional><attribute name="htmlUrl"><ref name="httpURL"/></attribute></optional>
              <optional><attribute name="description"><text/></attribute></optional>
              <optional><attribute name="language"><text/></attribute></optional>
              <optional><attribute name="version"><text/></attribute></optional>
            </group>
            <group>
              <optional>
                <attribute name="type"><data type="string"><except><value>rss</value></except></data></attribute>
              </optional>
              <optional><attribute name="url"><data type="anyURI"/></attribute></optional>
            </group>
          </choice>
          <optional><attribute name="title"><text/></attribute></optional>
          <optional><attribute name="isComment"><ref name="boolean"/></attribute></optional>
          <optional><attribute name="isBreakpoint"><ref name="boolean"/></attribute></optional>
          <optional><attribute name="created"><text/></attribute></optional>
          <optional><attribute name="category"><text/></attribute></optional>
          <zeroOrMore><ref name="outline"/></zeroOrMore>
        </element>
      </define>

      <define name="boolean">
        <choice><value>true</value><value>false</value></choice>
      </define>

      <define name="httpURL">
        <data type="anyURI"><param name="pattern">[Hh][Tt][Tt][Pp][Ss]?://\S+</param></data>
      </define>
    </grammar>
    """#

    /// sitemaps.org 0.9: a urlset of one or more url entries with an absolute loc.
    static let sitemap = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <grammar xmlns="http://relaxng.org/ns/structure/1.0"
             datatypeLibrary="http://www.w3.org/2001/XMLSchema-datatypes"
             ns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <start>
        <element name="urlset">
          <oneOrMore>
            <element name="url">
              <interleave>
                <element name="loc">
                  <data type="anyURI">
                    <param name="pattern">[Hh][Tt][Tt][Pp][Ss]?://\S+</param>
                    <param name="maxLength">2048</param>
                  </data>
                </element>
                <optional>
                  <element name="lastmod"><choice><data type="date"/><data type="dateTime"/></choice></element>
                </optional>
                <optional>
                  <element name="changefreq">
                    <choice>
                      <value>always</value><value>hourly</value><value>daily</value><value>weekly</value>
                      <value>monthly</value><value>yearly</value><value>never</value>
                    </choice>
                  </element>
                </optional>
                <optional>
                  <element name="priority">
                    <data type="decimal"><param name="minInclusive">0</param><param name="maxInclusive">1</param></data>
                  </element>
                </optional>
              </interleave>
            </element>
          </oneOrMore>
        </element>
      </start>
    </grammar>
    """#
}

extension Schemas {
    /// The schemas a validation uses, each compiled once per process. They are compiled all
    /// together, on first use, before any validation: libxml2 sets up its datatype library on
    /// the first compile, which must not race.
    static let compiled: [FileKind: Result<LibXML.RelaxNGSchema, RelaxNGSchemaError>] = {
        var schemas: [FileKind: Result<LibXML.RelaxNGSchema, RelaxNGSchemaError>] = [:]
        for (kind, name, text) in [(FileKind.rss, "RSS", rss), (.atom, "Atom", atom), (.opml, "OPML", opml), (.sitemap, "sitemap", sitemap)] {
            schemas[kind] = Result { () throws(RelaxNGSchemaError) in try LibXML.RelaxNGSchema(text: text, name: name) }
        }
        return schemas
    }()
}
