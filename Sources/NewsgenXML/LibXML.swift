import CLibXML2
import Foundation

/// The one place that talks to libxml2: parse, collect diagnostics, copy the tree out as Swift values, free.
/// Untrusted input is parsed without entity substitution, DTD loading or network access (no `XML_PARSE_NOENT`,
/// `DTDLOAD`, `DTDVALID` or `HUGE`), and an external entity loader refusing everything is installed first.
package enum LibXML {
    /// Parses XML. With `recover`, libxml2 repairs what it can (sloppy feeds); without, any error means no tree
    /// (our own output). Throws when the document goes over `limits`.
    package static func parseXML(_ bytes: UnsafeRawBufferPointer, url: String, recover: Bool,
                                 limits: DocumentLimits = .standard) throws(DocumentLimitError) -> (root: XMLElement?, diagnostics: [XMLDiagnostic]) {
        try parsed(bytes, url: url, recover: recover, limits: limits).get()
    }

    package static func parseXML(_ bytes: [UInt8], url: String, recover: Bool,
                                 limits: DocumentLimits = .standard) throws(DocumentLimitError) -> (root: XMLElement?, diagnostics: [XMLDiagnostic]) {
        try bytes.withUnsafeBytes { parsed($0, url: url, recover: recover, limits: limits) }.get()
    }

    private static func parsed(_ bytes: UnsafeRawBufferPointer, url: String, recover: Bool,
                               limits: DocumentLimits) -> Result<(root: XMLElement?, diagnostics: [XMLDiagnostic]), DocumentLimitError> {
        do throws(DocumentLimitError) {
            try limits.checkMarkup(bytes)
            try limits.checkTime()
        } catch {
            return .failure(error)
        }
        var options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)
        if recover { options |= Int32(XML_PARSE_RECOVER.rawValue) }
        let (copied, diagnostics) = withDiagnostics { () -> Result<XMLElement?, DocumentLimitError> in
            guard let document = readXML(bytes, url: url, options: options) else { return .success(nil) }
            defer { xmlFreeDoc(document) }
            guard let root = xmlDocGetRootElement(document) else { return .success(nil) }
            var copy = TreeCopy(limits: limits, expansion: limits.expansion(forDocumentOf: bytes.count))
            do throws(DocumentLimitError) {
                return .success(try copy.element(root, depth: 0, base: documentBase(url)))
            } catch {
                return .failure(error)
            }
        }
        return copied.map { ($0, diagnostics) }
    }

    /// What a strict check of one of our own documents found.
    package struct CheckedDocument: Sendable {
        /// The tree, when the document is well-formed.
        package var root: XMLElement?
        /// Well-formedness errors (warnings dropped); empty when the document is well-formed.
        package var syntax: [XMLDiagnostic]
        /// Where the document breaks the schema; empty when it matches or no schema was given.
        package var schema: [XMLDiagnostic]
    }

    /// Parses our own output strictly and, when well-formed, validates it against `schema` and copies its tree,
    /// from one parse.
    package static func check(_ bytes: UnsafeRawBufferPointer, url: String, schema: RelaxNGSchema?) -> CheckedDocument {
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue
            | XML_PARSE_BIG_LINES.rawValue)
        let syntax = DiagnosticCollector()
        let validity = DiagnosticCollector()
        var root: XMLElement?
        if let document = collecting(into: syntax, { readXML(bytes, url: url, options: options) }) {
            defer { xmlFreeDoc(document) }
            if syntax.diagnostics.allSatisfy({ $0.severity == .warning }) {
                if let schema {
                    collecting(into: validity) { schema.validate(document, into: validity) }
                }
                var copy = TreeCopy.ownOutput
                root = xmlDocGetRootElement(document).flatMap { try? copy.element($0, depth: 0) }
            }
        }
        return CheckedDocument(
            root: root,
            syntax: syntax.diagnostics.filter { $0.severity != .warning },
            schema: validity.diagnostics.filter { $0.severity != .warning }
        )
    }

    /// Reads one of our own documents strictly without building a tree, calling `visit` with each start tag as
    /// SAX2 hands it over (`ElementView`) and its depth (0 for the root). Returns the well-formedness errors
    /// (warnings dropped); nothing is visited or reported after the first fatal one.
    package static func scanElements(_ bytes: UnsafeRawBufferPointer, visit: (ElementView, Int) -> Void) -> [XMLDiagnostic] {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return [XMLDiagnostic(line: 1, column: 1, message: "Document is empty", severity: .fatal)]
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue)
        return withoutActuallyEscaping(visit) { visit in
            let scan = ElementScan(visit: visit)
            collecting(into: scan.collector) {
                withExtendedLifetime(scan) {
                    _ = newsgen_scanElements(base.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count), options,
                                             Unmanaged.passUnretained(scan).toOpaque(),
                                             ElementScan.start, ElementScan.end, ElementScan.declare, ElementScan.record)
                }
            }
            return scan.collector.diagnostics.filter { $0.severity != .warning }
        }
    }

    /// State of `scanElements`: the visit, the next element's depth, and diagnostics up to the first fatal one
    /// (libxml2 keeps reporting after it, and keeps visiting after an entity declaration: both ignored).
    private final class ElementScan {
        let visit: (ElementView, Int) -> Void
        let collector = DiagnosticCollector()
        var depth = 0
        var halted = false

        init(visit: @escaping (ElementView, Int) -> Void) {
            self.visit = visit
        }

        static func of(_ context: UnsafeMutableRawPointer?) -> (ElementScan, xmlParserCtxtPtr)? {
            guard let context = context?.assumingMemoryBound(to: xmlParserCtxt.self),
                  let scan = context.pointee._private else { return nil }
            return (Unmanaged<ElementScan>.fromOpaque(scan).takeUnretainedValue(), context)
        }

        static func position(of parser: xmlParserCtxtPtr) -> (line: Int, column: Int) {
            guard let input = parser.pointee.input else { return (0, 0) }
            return (Int(input.pointee.line), Int(input.pointee.col))
        }

        static let start: startElementNsSAX2Func = { context, name, _, namespace, _, _, attributeCount, _, attributes in
            guard let (scan, parser) = of(context), !scan.halted, let name else { return }
            let tag = ElementView.StartTag(name: name, namespace: namespace,
                                           attributes: attributes.map { UnsafeMutablePointer(mutating: $0) },
                                           attributeCount: Int(attributeCount), line: position(of: parser).line)
            scan.visit(ElementView(tag: tag), scan.depth)
            scan.depth += 1
        }

        static let end: endElementNsSAX2Func = { context, _, _, _ in
            guard let (scan, _) = of(context) else { return }
            scan.depth -= 1
        }

        /// An entity declared in `<!DOCTYPE>` ends the scan: HTML has none, and SAX2 without a tree would leave their
        /// references in attribute values unread.
        static let declare: entityDeclSAXFunc = { context, name, _, _, _, _ in
            guard let (scan, parser) = of(context), !scan.halted else { return }
            let entity = LibXML.string(name) ?? ""
            let (line, column) = position(of: parser)
            scan.collector.append(XMLDiagnostic(
                line: line, column: column,
                message: "the <!DOCTYPE> declares the entity '\(entity)', which an HTML page cannot: write the character or a character reference (&#...;) instead",
                severity: .fatal))
            scan.halted = true
        }

        static let record: xmlStructuredErrorFunc = { context, error in
            guard let (scan, _) = of(context), let error, !scan.halted else { return }
            scan.collector.record(error.pointee)
            if error.pointee.level == XML_ERR_FATAL { scan.halted = true }
        }
    }

    /// What a streaming check of one of our own documents found.
    package struct StreamedDocument: Sendable {
        /// Well-formedness errors (warnings dropped); after the first, nothing more was read.
        package var syntax: [XMLDiagnostic]
        /// Schema errors; empty when it matches, no schema was given, or the document is not well-formed.
        package var schema: [XMLDiagnostic]
    }

    /// Reads one of our own documents strictly with libxml2's streaming reader, validating against `schema` as it
    /// goes and calling `visit` for each element down to `depth` (0 is the root). No tree is built, so memory stays
    /// at one entry. `text`, if given, receives each piece of text or CDATA in visited elements, with its depth.
    package static func checkStreaming(
        _ bytes: UnsafeRawBufferPointer, url: String, schema: RelaxNGSchema?, depth limit: Int,
        visit: (ElementView, Int) -> Void, text: ((UnsafeBufferPointer<UInt8>, Int) -> Void)? = nil
    ) -> StreamedDocument {
        stream(bytes, url: url, schema: schema, depth: limit, visit: { visit(ElementView(node: $0), $1) }, text: text)
    }

    private static func stream(
        _ bytes: UnsafeRawBufferPointer, url: String, schema: RelaxNGSchema?, depth limit: Int,
        visit: (xmlNodePtr, Int) -> Void, text: ((UnsafeBufferPointer<UInt8>, Int) -> Void)? = nil
    ) -> StreamedDocument {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return StreamedDocument(syntax: [XMLDiagnostic(line: 1, column: 1, message: "Document is empty", severity: .fatal)], schema: [])
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue
            | XML_PARSE_BIG_LINES.rawValue)
        let collector = DiagnosticCollector()
        collecting(into: collector) {
            guard let reader = xmlReaderForMemory(base.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count), url, nil, options) else {
                return
            }
            defer { xmlFreeTextReader(reader) }
            xmlTextReaderSetStructuredErrorHandler(reader, recordError, Unmanaged.passUnretained(collector).toOpaque())
            if let schema, !schema.streamValidation(by: reader) {
                collector.append(XMLDiagnostic(line: 0, column: 0, message: "libxml2 could not start a RELAX NG validation",
                                               severity: .error, isValidity: true))
            }
            let elementType = Int32(XML_READER_TYPE_ELEMENT.rawValue)
            let textTypes = [XML_READER_TYPE_TEXT, XML_READER_TYPE_CDATA].map { Int32($0.rawValue) }
            while xmlTextReaderRead(reader) == 1 {
                let type = xmlTextReaderNodeType(reader)
                if type == elementType {
                    let depth = Int(xmlTextReaderDepth(reader))
                    guard depth <= limit, let node = xmlTextReaderCurrentNode(reader) else { continue }
                    visit(node, depth)
                } else if let text, textTypes.contains(type) {
                    let depth = Int(xmlTextReaderDepth(reader)) - 1
                    guard depth <= limit, let value = xmlTextReaderConstValue(reader) else { continue }
                    text(UnsafeBufferPointer(start: value, count: Int(xmlStrlen(value))), depth)
                }
            }
            if schema != nil, xmlTextReaderIsValid(reader) == 0,
               !collector.diagnostics.contains(where: { $0.isValidity && $0.severity != .warning }) {
                collector.append(XMLDiagnostic(line: 0, column: 0, message: "does not match the schema", severity: .error, isValidity: true))
            }
        }
        let errors = collector.diagnostics.filter { $0.severity != .warning }
        let syntax = errors.filter { !$0.isValidity }
        return StreamedDocument(syntax: syntax, schema: syntax.isEmpty ? errors.filter(\.isValidity) : [])
    }

    /// An element's name, namespace, attributes and line, without its content.
    static func shallowElement(_ node: xmlNodePtr) -> XMLElement {
        var element = XMLElement(
            name: string(node.pointee.name) ?? "",
            namespace: node.pointee.ns.flatMap { string($0.pointee.href) },
            line: Int(xmlGetLineNo(node))
        )
        var attribute = node.pointee.properties
        while let current = attribute {
            element.attributes.append(.init(
                name: string(current.pointee.name) ?? "",
                namespace: current.pointee.ns.flatMap { string($0.pointee.href) },
                value: current.pointee.children.map { copyText(of: $0) } ?? ""
            ))
            attribute = current.pointee.next
        }
        return element
    }

    /// A compiled RELAX NG schema. Safe to share despite its C pointer: libxml2 does not change a compiled schema
    /// while validating; each validation gets its own context.
    package final class RelaxNGSchema: @unchecked Sendable {
        private let schema: xmlRelaxNGPtr

        /// Compiles a schema written in RELAX NG's XML syntax; the error lists what libxml2 said.
        package init(text: String, name: String) throws(RelaxNGSchemaError) {
            _ = LibXML.installGuards
            let collector = DiagnosticCollector()
            var utf8 = Array(text.utf8)
            let compiled = LibXML.collecting(into: collector) { () -> xmlRelaxNGPtr? in
                utf8.withUnsafeMutableBufferPointer { buffer -> xmlRelaxNGPtr? in
                    guard let base = buffer.baseAddress else { return nil }
                    let parser = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                        xmlRelaxNGNewMemParserCtxt($0, Int32(clamping: buffer.count))
                    }
                    guard let parser else { return nil }
                    defer { xmlRelaxNGFreeParserCtxt(parser) }
                    xmlRelaxNGSetParserStructuredErrors(parser, LibXML.recordError, Unmanaged.passUnretained(collector).toOpaque())
                    return xmlRelaxNGParse(parser)
                }
            }
            guard let compiled else {
                let messages = collector.diagnostics.map(\.description)
                throw RelaxNGSchemaError(name: name, messages: messages.isEmpty ? ["libxml2 could not compile it"] : messages)
            }
            schema = compiled
        }

        deinit { xmlRelaxNGFree(schema) }

        /// Has `reader` validate what it reads against this schema; false when libxml2 refused.
        fileprivate func streamValidation(by reader: xmlTextReaderPtr) -> Bool {
            xmlTextReaderRelaxNGSetSchema(reader, schema) == 0
        }

        /// Validates a parsed document; every validity error goes to `collector`.
        fileprivate func validate(_ document: xmlDocPtr, into collector: DiagnosticCollector) {
            guard let context = xmlRelaxNGNewValidCtxt(schema) else {
                collector.append(XMLDiagnostic(line: 0, column: 0, message: "libxml2 could not start a RELAX NG validation", severity: .error))
                return
            }
            defer { xmlRelaxNGFreeValidCtxt(context) }
            let before = collector.diagnostics.count
            xmlRelaxNGSetValidStructuredErrors(context, LibXML.recordError, Unmanaged.passUnretained(collector).toOpaque())
            let result = withExtendedLifetime(collector) { xmlRelaxNGValidateDoc(context, document) }
            if result != 0 && collector.diagnostics.count == before {
                collector.append(XMLDiagnostic(line: 0, column: 0, message: "does not match the schema", severity: .error))
            }
        }
    }

    /// Parses an HTML fragment leniently and returns its body; `nil` when empty or over the standard
    /// `DocumentLimits` (no deadline: the feed carrying it had its own).
    package static func parseHTMLFragment(_ html: String) -> XMLElement? {
        _ = installGuards
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue)
        var utf8 = Array(html.utf8)
        if utf8.isEmpty { return nil }
        let limits = DocumentLimits.standard
        guard (try? limits.checkMarkup(utf8)) != nil else { return nil }
        let (element, _) = withDiagnostics { () -> XMLElement? in
            utf8.withUnsafeMutableBufferPointer { buffer -> XMLElement? in
                guard let base = buffer.baseAddress else { return nil }
                let document = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    htmlReadMemory($0, Int32(clamping: buffer.count), "about:fragment", "UTF-8", options)
                }
                guard let document else { return nil }
                defer { xmlFreeDoc(document) }
                guard let root = xmlDocGetRootElement(document) else { return nil }
                var copy = TreeCopy(limits: limits, expansion: limits.expansion(forDocumentOf: buffer.count))
                return try? copy.element(root, depth: 0)
            }
        }
        return element
    }

    // MARK: - Internals

    /// Deeper trees are cut off: no feed needs them, and recursion must stay bounded.
    private static let maximumDepth = 256

    static let installGuards: Void = {
        xmlInitParser()
        newsgen_installEntityLoaderGuard()
    }()

    private static func readXML(_ bytes: UnsafeRawBufferPointer, url: String, options: Int32) -> xmlDocPtr? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        return xmlReadMemory(base.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count), url, nil, options)
    }

    private static func withDiagnostics<T>(_ body: () -> T) -> (T, [XMLDiagnostic]) {
        let collector = DiagnosticCollector()
        let result = collecting(into: collector, body)
        return (result, collector.diagnostics)
    }

    /// Runs `body` with this thread's structured error handler sending everything to `collector`, then resets it.
    /// The handler is per thread, so nothing in `body` may suspend.
    static func collecting<T>(into collector: DiagnosticCollector, _ body: () -> T) -> T {
        _ = installGuards
        xmlSetStructuredErrorFunc(Unmanaged.passUnretained(collector).toOpaque(), recordError)
        let result = body()
        xmlSetStructuredErrorFunc(nil, nil)
        return withExtendedLifetime(collector) { result }
    }

    /// The structured error handler: `context` is an unretained `DiagnosticCollector`.
    fileprivate static let recordError: xmlStructuredErrorFunc = { context, error in
        guard let context, let error else { return }
        Unmanaged<DiagnosticCollector>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
    }

    final class DiagnosticCollector {
        private(set) var diagnostics: [XMLDiagnostic] = []

        package func append(_ diagnostic: XMLDiagnostic) {
            guard diagnostics.count < 1000 else { return }
            diagnostics.append(diagnostic)
        }

        package func record(_ error: xmlError) {
            let message = error.message.map { String(cString: $0) } ?? "unknown error"
            let severity: XMLDiagnostic.Severity
            switch error.level {
            case XML_ERR_WARNING: severity = .warning
            case XML_ERR_FATAL: severity = .fatal
            default: severity = .error
            }
            // Keep the node's name so a column can be found.
            var element: String?
            let isValidity = error.domain == Int32(XML_FROM_RELAXNGV.rawValue)
            if isValidity, let node = error.node {
                let node = node.assumingMemoryBound(to: xmlNode.self)
                if node.pointee.type == XML_ELEMENT_NODE { element = LibXML.string(node.pointee.name) }
            }
            append(XMLDiagnostic(
                line: Int(error.line),
                column: Int(error.int2),
                message: message.trimmedWhitespace,
                severity: severity,
                element: element,
                isForbiddenCharacter: error.domain == Int32(XML_FROM_PARSER.rawValue) && error.code == Int32(XML_ERR_INVALID_CHAR.rawValue),
                isValidity: isValidity
            ))
        }
    }

    /// The document URL as the outermost base for relative references, if absolute (a local path is not).
    private static func documentBase(_ url: String) -> String? {
        URL(string: url)?.scheme == nil ? nil : url
    }

    /// Copies libxml2's tree into `XMLElement`s in linear time: each text run is built in one string, and entity
    /// reference text (a few kilobytes can hold millions of references) counts against `expansion` bytes. The
    /// deadline and cancellation are checked every few thousand nodes.
    private struct TreeCopy {
        /// `nil` for one of our own documents: no deadline, and nothing stops the copy.
        let limits: DocumentLimits?
        /// The bytes of entity text still allowed.
        var expansion: Int
        private let expansionLimit: Int
        private var nodes = 0

        init(limits: DocumentLimits?, expansion: Int) {
            self.limits = limits
            self.expansion = expansion
            expansionLimit = expansion
        }

        /// For a document newsgen wrote: it declares no entity, and a stopped build must not make its check report a
        /// missing tree.
        static var ownOutput: TreeCopy { TreeCopy(limits: nil, expansion: .max) }

        mutating func element(_ node: xmlNodePtr, depth: Int, base: String? = nil) throws(DocumentLimitError) -> XMLElement {
            try visit()
            var element = XMLElement(
                name: string(node.pointee.name) ?? "",
                namespace: node.pointee.ns.flatMap { string($0.pointee.href) },
                attributes: [],
                nodes: [],
                line: Int(xmlGetLineNo(node)),
                base: base
            )
            var attribute = node.pointee.properties
            while let current = attribute {
                var value = ""
                if let first = current.pointee.children { value = try text(of: first) }
                element.attributes.append(.init(
                    name: string(current.pointee.name) ?? "",
                    namespace: current.pointee.ns.flatMap { string($0.pointee.href) },
                    value: value
                ))
                attribute = current.pointee.next
            }
            if let declared = element.attribute("base", in: Namespace.xml) {
                element.base = XMLElement.resolve(declared, against: base) ?? declared
            }
            guard depth < maximumDepth else { return element }
            var run = ""
            var child = node.pointee.children
            while let current = child {
                switch current.pointee.type {
                case XML_ELEMENT_NODE:
                    if !run.isEmpty {
                        element.nodes.append(.text(run))
                        run = ""
                    }
                    element.nodes.append(.element(try self.element(current, depth: depth + 1, base: element.base)))
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    try visit()
                    if let content = current.pointee.content { run += LibXML.string(content) ?? "" }
                case XML_ENTITY_REF_NODE:
                    // Entities are never substituted by the parser (no XML_PARSE_NOENT), but a declared internal entity's text
                    // is text the reader should see.
                    try visit()
                    if let text = try entityText(current) { run += text }
                default:
                    // Comments and processing instructions carry nothing a reader shows.
                    break
                }
                child = current.pointee.next
            }
            if !run.isEmpty { element.nodes.append(.text(run)) }
            return element
        }

        /// Text of an attribute's value nodes, entity references expanded within the budget.
        mutating func text(of first: xmlNodePtr) throws(DocumentLimitError) -> String {
            var result = ""
            var node: xmlNodePtr? = first
            while let current = node {
                if current.pointee.type == XML_ENTITY_REF_NODE {
                    try visit()
                    if let text = try entityText(current) { result += text }
                } else if let text = string(current.pointee.content) {
                    result += text
                }
                node = current.pointee.next
            }
            return result
        }

        /// The text of a reference to a declared internal entity if plain (no markup or references), else `nil`.
        /// Throws once entity text would pass the budget.
        private mutating func entityText(_ reference: xmlNodePtr) throws(DocumentLimitError) -> String? {
            guard let declaration = reference.pointee.children, declaration.pointee.type == XML_ENTITY_DECL else { return nil }
            let entity = UnsafeMutableRawPointer(declaration).assumingMemoryBound(to: xmlEntity.self)
            guard entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY, let content = entity.pointee.content else { return nil }
            let length = Int(entity.pointee.length)
            guard length <= expansion else { throw .entityExpansion(limit: expansionLimit) }
            expansion -= length
            guard let text = string(content), !text.contains("<"), !text.contains("&") else { return nil }
            return text
        }

        /// Counts a node; every 4,096th checks the deadline and cancellation.
        private mutating func visit() throws(DocumentLimitError) {
            nodes &+= 1
            if nodes & 4095 == 0, let limits { try limits.checkTime() }
        }
    }

    /// Text of an attribute's value nodes as libxml2 holds them (our own output: no entities).
    static func copyText(of first: xmlNodePtr) -> String {
        var result = ""
        var node: xmlNodePtr? = first
        while let current = node {
            if let text = string(current.pointee.content) { result += text }
            node = current.pointee.next
        }
        return result
    }

    /// The character an HTML 4 named entity stands for (`nbsp` gives U+00A0), from libxml2's table.
    package static func htmlEntity(named name: String) -> Unicode.Scalar? {
        guard let entity = name.withCString({ htmlEntityLookup(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) }) else {
            return nil
        }
        return Unicode.Scalar(entity.pointee.value)
    }

    static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }
}

/// A RELAX NG schema that libxml2 could not compile (a bug in newsgen, caught by its tests).
package struct RelaxNGSchemaError: Error, Sendable, CustomStringConvertible {
    package var name: String
    package var messages: [String]

    package init(name: String, messages: [String]) {
        self.name = name
        self.messages = messages
    }

    package var description: String { "the \(name) schema does not compile: \(messages.joined(separator: "; "))" }
}
