import Foundation
import Testing
import NewsgenXML
@testable import NewsgenRender

/// The official Mustache specification's core modules (comments, delimiters, interpolation,
/// inverted sections, partials, sections) and its optional inheritance module
/// (Fixtures/mustache-spec, MIT), run against newsgen's engine. The optional dynamic-names and
/// lambdas modules are not supported: a dynamic name fails to load (`MustacheEngineTests`), and
/// data holds no code. Each test's data is made a `TemplateValue` (a number with a fraction as
/// the text the JSON writes, which is how the spec's templates print it).
@Suite("Mustache specification")
struct MustacheSpecTests {
    struct SpecTest: Sendable, CustomStringConvertible {
        var module: String
        var name: String
        var data: TemplateValue
        var template: String
        var partials: [String: String]
        var expected: String

        var description: String { "\(module): \(name)" }
    }

    static let modules = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections", "~inheritance"]

    /// Where the engine's rule for indenting what a partial or block renders (the first line of
    /// each call's output indented only through the call around it), on which the default theme's
    /// bytes depend (Fixtures/EngineParity), differs from the spec's.
    static let indentationRule: Set<String> = ["~inheritance: Intrinsic indentation", "~inheritance: Nested block reindentation"]

    static var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/mustache-spec")
    }

    static func load(_ module: String) throws -> [SpecTest] {
        let root = try JSONDocument.parse(Data(contentsOf: folder.appendingPathComponent("\(module).json")))
        return (root["tests"]?.array ?? []).map { test in
            SpecTest(
                module: module,
                name: test["name"]?.string ?? "?",
                data: value(test["data"]),
                template: test["template"]?.string ?? "",
                partials: Dictionary((test["partials"]?.members ?? []).map { ($0.key, $0.value.string ?? "") }, uniquingKeysWith: { $1 }),
                expected: test["expected"]?.string ?? ""
            )
        }
    }

    static func value(_ node: JSONNode?) -> TemplateValue {
        guard let node else { return .null }
        switch node.value {
        case .object(let members): return .object(TemplateObject(names: members.map(\.key), values: members.map { value($0.value) }))
        case .array(let items): return .list(items.map { value($0) })
        case .string(let text): return .string(text)
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 { return .int(Int(number)) }
            return .string(node.numberText ?? String(number))
        case .bool(let flag): return .bool(flag)
        case .null: return .null
        }
    }

    static var all: [SpecTest] {
        (try? modules.flatMap(load)) ?? []
    }

    @Test("the spec's files are all here and read")
    func files() throws {
        let counts = try Self.modules.map { try Self.load($0).count }
        #expect(counts == [12, 14, 42, 22, 12, 34, 27], "tests per module: \(counts)")
    }

    @Test("each core test renders what the spec expects", arguments: all)
    func spec(_ test: SpecTest) throws {
        var library = MustacheLibrary()
        try library.register(test.template, named: "<main>")
        for (name, text) in test.partials { try library.register(text, named: name) }
        let bytes = try #require(library.render(test.data, template: "<main>"))
        let rendered = String(decoding: bytes, as: UTF8.self)
        if Self.indentationRule.contains(test.description) {
            withKnownIssue("the engine's indentation of a block's lines") { #expect(rendered == test.expected) }
        } else {
            #expect(rendered == test.expected, "template \(test.template.debugDescription)")
        }
    }
}
