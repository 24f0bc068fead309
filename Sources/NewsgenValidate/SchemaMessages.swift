import NewsgenXML
/// Turns libxml2's RELAX NG diagnostics into problems a reader can act on.
///
/// libxml2 follows a specific error with generic ones for each enclosing element ("Element
/// channel failed to validate content", "Invalid sequence in interleave"); those are left out
/// when a specific message says what is wrong. Inside an interleave, libxml2 reports any
/// child it cannot place, whatever the reason, only as "Extra element ttl in interleave",
/// often without a line; that becomes a sentence about the element, at its start tag.
enum SchemaMessages {
    static func report(_ diagnostics: [XMLDiagnostic], as rule: ValidationRule, into problems: inout FileProblems) {
        let specific = diagnostics.filter { !isGeneric($0.message) && extraElement(in: $0.message) == nil }
        if !specific.isEmpty {
            for diagnostic in specific { add(diagnostic, as: rule, into: &problems) }
            return
        }
        let extras = diagnostics.compactMap { extraElement(in: $0.message) }
        guard !extras.isEmpty else {
            for diagnostic in diagnostics { add(diagnostic, as: rule, into: &problems) }
            return
        }
        var seen = Set<String>()
        for name in extras where seen.insert(name).inserted {
            let line = diagnostics.first { $0.element == name && $0.line > 0 }?.line
            let position = line.map { problems.source.startTag(of: name, line: $0, occurrence: 0) } ?? problems.source.firstStartTag(of: name)
            problems.add(rule, "<\(name)> is not allowed here, appears more often than allowed, or holds what the schema does not allow",
                         line: position.line, column: position.column)
        }
    }

    private static func add(_ diagnostic: XMLDiagnostic, as rule: ValidationRule, into problems: inout FileProblems) {
        guard let element = diagnostic.element, diagnostic.column == 0 else {
            problems.add(rule, diagnostic.message, line: diagnostic.line, column: diagnostic.column)
            return
        }
        let (line, column) = problems.source.startTag(of: element, line: diagnostic.line, occurrence: 0)
        // "Error validating datatype anyURI" says what, not where.
        let message = diagnostic.message.contains(element) ? diagnostic.message : "\(diagnostic.message) in <\(element)>"
        problems.add(rule, message, line: line, column: column)
    }

    private static func isGeneric(_ message: String) -> Bool {
        message.hasSuffix("failed to validate content") || message == "Invalid sequence in interleave"
    }

    /// "ttl" from "Extra element ttl in interleave".
    private static func extraElement(in message: String) -> String? {
        guard message.hasPrefix("Extra element "), message.hasSuffix(" in interleave") else { return nil }
        return String(message.dropFirst("Extra element ".count).dropLast(" in interleave".count))
    }
}
