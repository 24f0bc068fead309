import Foundation
import Testing
@testable import NewsgenValidate
import NewsgenTestSupport

/// Every page carries a Content-Security-Policy, so that markup a sanitizer missed cannot run:
/// no inline script, no plugins, no forms posting elsewhere, no frames, no `<base>` elsewhere.
@Suite("Content-Security-Policy")
struct ContentSecurityPolicyTests {
    static let policy = "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-src 'none'; img-src 'self'"

    @Test("every page of the sample site declares the policy in <head>, right after the charset")
    func everyPage() async throws {
        let (output, _) = try await SampleSiteValidationTests.buildSample()
        let pages = SiteValidator.regularFiles(below: output).map(\.path).filter { $0.hasSuffix(".html") }
            .map { output.appendingPathComponent($0) }
        #expect(pages.count > 20)
        let meta = #"<meta charset="utf-8"/>"# + "\n"
            + #"<meta http-equiv="Content-Security-Policy" content=""# + Self.policy + #""/>"#
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            let head = text.components(separatedBy: "</head>").first ?? ""
            // Before anything the policy governs: a policy in a meta element applies only after it.
            #expect(head.contains("<head>\n" + meta), "\(page.path) lacks the policy right after <meta charset>")
            #expect(text.components(separatedBy: "Content-Security-Policy").count == 2, "\(page.path): one policy")
        }
    }

    @Test("the policy allows no inline script, plugin, foreign form target, frame or foreign <base>")
    func policyText() {
        let directives = Dictionary(uniqueKeysWithValues: Self.policy.split(separator: ";").map { part in
            let words = part.split(separator: " ").map(String.init)
            return (words[0], Array(words.dropFirst()))
        })
        #expect(directives["script-src"] == ["'self'"], "no 'unsafe-inline', no hosts")
        #expect(directives["object-src"] == ["'none'"])
        #expect(directives["form-action"] == ["'self'"])
        #expect(directives["base-uri"] == ["'self'"])
        #expect(directives["frame-src"] == ["'none'"])
        #expect(directives["default-src"] == ["'self'"])
        #expect(!Self.policy.contains("unsafe"))
    }
}
