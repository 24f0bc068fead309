import CLibXML2
import Foundation

/// The one place that talks to libxml2: parse a buffer, collect every diagnostic,
/// copy the tree out as Swift values, free everything.
///
/// Untrusted input is parsed without entity substitution, DTD loading or network
/// access (no `XML_PARSE_NOENT`, `DTDLOAD`, `DTDVALID` or `HUGE`), and an external
/// entity loader that refuses everything is installed before the first parse.
enum LibXML {
    /// Parses XML. With `recover`, libxml2 repairs what it can (for sloppy feeds); without it,
    /// any error means no tree (for checking our own output).
    static func parseXML(_ bytes: UnsafeRawBufferPointer, url: String, recover: Bool) -> (root: XMLElement?, diagnostics: [XMLDiagnostic]) {
        var options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)
        if recover { options |= Int32(XML_PARSE_RECOVER.rawValue) }
        return withDiagnostics { () -> XMLElement? in
            guard let document = readXML(bytes, url: url, options: options) else { return nil }
            defer { xmlFreeDoc(document) }
            guard let root = xmlDocGetRootElement(document) else { return nil }
            return copyElement(root, depth: 0)
        }
    }

    /// Checks that a buffer is well-formed XML; returns every diagnostic (empty when it is).
    static func checkWellFormed(_ bytes: UnsafeRawBufferPointer, url: String) -> [XMLDiagnostic] {
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_COMPACT.rawValue)
        let (_, diagnostics) = withDiagnostics { () -> Bool in
            guard let document = readXML(bytes, url: url, options: options) else { return false }
            xmlFreeDoc(document)
            return true
        }
        return diagnostics.filter { $0.severity != .warning }
    }

    /// Parses an HTML fragment leniently (HTML as it is found in feeds) and returns its body.
    static func parseHTMLFragment(_ html: String) -> XMLElement? {
        _ = installGuards
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue)
        var utf8 = Array(html.utf8)
        if utf8.isEmpty { return nil }
        let (element, _) = withDiagnostics { () -> XMLElement? in
            utf8.withUnsafeMutableBufferPointer { buffer -> XMLElement? in
                guard let base = buffer.baseAddress else { return nil }
                let document = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    htmlReadMemory($0, Int32(clamping: buffer.count), "about:fragment", "UTF-8", options)
                }
                guard let document else { return nil }
                defer { xmlFreeDoc(document) }
                guard let root = xmlDocGetRootElement(document) else { return nil }
                return copyElement(root, depth: 0)
            }
        }
        return element
    }

    // MARK: - Internals

    /// Deeper trees are cut off: no feed needs them, and recursion must stay bounded.
    private static let maximumDepth = 256

    private static let installGuards: Void = {
        xmlInitParser()
        newsgen_installEntityLoaderGuard()
    }()

    private static func readXML(_ bytes: UnsafeRawBufferPointer, url: String, options: Int32) -> xmlDocPtr? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        return xmlReadMemory(base.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count), url, nil, options)
    }

    /// Runs `body` with a structured error handler that collects diagnostics on this thread.
    /// libxml2's handler is per thread, so nothing in `body` may suspend.
    private static func withDiagnostics<T>(_ body: () -> T) -> (T, [XMLDiagnostic]) {
        _ = installGuards
        let collector = DiagnosticCollector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        xmlSetStructuredErrorFunc(context) { context, error in
            guard let context, let error else { return }
            let collector = Unmanaged<DiagnosticCollector>.fromOpaque(context).takeUnretainedValue()
            collector.record(error.pointee)
        }
        let result = body()
        xmlSetStructuredErrorFunc(nil, nil)
        return withExtendedLifetime(collector) { (result, collector.diagnostics) }
    }

    private final class DiagnosticCollector {
        var diagnostics: [XMLDiagnostic] = []

        func record(_ error: xmlError) {
            guard diagnostics.count < 1000 else { return }
            let message = error.message.map { String(cString: $0) } ?? "unknown error"
            let severity: XMLDiagnostic.Severity
            switch error.level {
            case XML_ERR_WARNING: severity = .warning
            case XML_ERR_FATAL: severity = .fatal
            default: severity = .error
            }
            diagnostics.append(XMLDiagnostic(
                line: Int(error.line),
                column: Int(error.int2),
                message: message.trimmingCharacters(in: .whitespacesAndNewlines),
                severity: severity
            ))
        }
    }

    private static func copyElement(_ node: xmlNodePtr, depth: Int) -> XMLElement {
        var element = XMLElement(
            name: string(node.pointee.name) ?? "",
            namespace: node.pointee.ns.flatMap { string($0.pointee.href) },
            attributes: [],
            nodes: [],
            line: Int(xmlGetLineNo(node))
        )
        var attribute = node.pointee.properties
        while let current = attribute {
            let value = current.pointee.children.map { copyText(of: $0) } ?? ""
            element.attributes.append(.init(
                name: string(current.pointee.name) ?? "",
                namespace: current.pointee.ns.flatMap { string($0.pointee.href) },
                value: value
            ))
            attribute = current.pointee.next
        }
        guard depth < maximumDepth else { return element }
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                element.nodes.append(.element(copyElement(current, depth: depth + 1)))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let text = string(current.pointee.content) {
                    if case .text(let previous)? = element.nodes.last {
                        element.nodes[element.nodes.count - 1] = .text(previous + text)
                    } else {
                        element.nodes.append(.text(text))
                    }
                }
            default:
                // Entity references (never substituted), comments and processing
                // instructions carry nothing a reader shows.
                break
            }
            child = current.pointee.next
        }
        return element
    }

    /// Text of an attribute's value nodes.
    private static func copyText(of first: xmlNodePtr) -> String {
        var result = ""
        var node: xmlNodePtr? = first
        while let current = node {
            if let text = string(current.pointee.content) { result += text }
            node = current.pointee.next
        }
        return result
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }
}
