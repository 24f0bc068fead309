import Foundation
import Testing
@testable import NewsgenConfig
@testable import NewsgenStore
@testable import NewsgenValidate
@testable import NewsgenFetch
@testable import NewsgenRender
@testable import NewsgenBuild
import NewsgenTestSupport

@Suite("Built-in theme")
struct DefaultThemeTests {
    static let theme = TestSupport.repository.appendingPathComponent("Templates")

    @Test("the theme built into the binary is Templates/, every file, byte for byte (Scripts/embed-files)")
    func matchesTemplatesFolder() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.theme.path)?.allObjects as? [String])
        let templates = files.filter { $0.hasSuffix(".mustache") }
        #expect(Set(templates.map { String($0.dropLast(".mustache".count)) }) == Set(DefaultTheme.templates.keys), "run Scripts/embed-files")
        for file in templates {
            let text = try String(contentsOf: Self.theme.appendingPathComponent(file), encoding: .utf8)
            #expect(DefaultTheme.templates[String(file.dropLast(".mustache".count))] == text, "\(file) differs from its embedded copy: run Scripts/embed-files")
        }
        let assets = files.filter { $0.hasPrefix("assets/") && !$0.hasSuffix("/") && $0 != "assets" }
        #expect(Set(assets.map { String($0.dropFirst("assets/".count)) }) == Set(DefaultTheme.assets.keys), "run Scripts/embed-files")
        for file in assets {
            #expect(DefaultTheme.assets[String(file.dropFirst("assets/".count))] == (try String(contentsOf: Self.theme.appendingPathComponent(file), encoding: .utf8)), "\(file) differs from its embedded copy: run Scripts/embed-files")
        }
    }

    func build(siteJSON: String) async throws -> (URL, Result<BuildReport, BuildError>) {
        let folder = try TestSupport.temporaryFolder()
        try FileManager.default.copyItem(at: TestSupport.repository.appendingPathComponent("Samples"), to: folder.appendingPathComponent("Samples"))
        let config = try SiteConfig.decode(Data(siteJSON.utf8), file: folder.appendingPathComponent("site.json"))
        do {
            return (folder, .success(try await TestBuild.run(config).0))
        } catch {
            return (folder, .failure(error))
        }
    }

    @Test("a site with no Templates folder builds with the built-in theme")
    func noTemplatesFolder() async throws {
        let (folder, result) = try await build(siteJSON: #"{"sources": [{"id": "world", "feed": "Samples/feeds/world.xml"}]}"#)
        let report = try result.get()
        #expect(report.exitStatus == 0)
        let output = folder.appendingPathComponent("public")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("assets/style.css").path))
        #expect(try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8).contains("<h1>Headlines</h1>"))
        #expect(await SiteValidator.validate(directory: output).isValid)
    }

    @Test("a templates folder named in site.json must exist")
    func explicitFolderMissing() async throws {
        let (folder, result) = try await build(siteJSON: #"{"templates": "MyTheme", "sources": []}"#)
        guard case .failure(let error) = result else { Issue.record("built without its templates"); return }
        #expect(error.stage == .loadTemplates)
        #expect(error.description.hasSuffix("MyTheme: the templates folder does not exist (\(folder.appendingPathComponent("site.json").path): templates)"))
    }
}
