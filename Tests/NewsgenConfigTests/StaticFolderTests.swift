import Foundation
import Testing
@testable import NewsgenConfig
import NewsgenTestSupport

/// site.json's `static` key: a folder copied into the output as it is, read safely.
@Suite("site.json: static")
struct StaticFolderTests {
    /// A site folder with site.json naming `static` (when given) and the files given, relative to it.
    private func site(_ staticKey: String? = "static", files: [String: String] = [:], output: String = "public") throws -> SiteConfig {
        let folder = try TestSupport.temporaryFolder()
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let key = staticKey.map { #""static": "\#($0)", "# } ?? ""
        let json = #"{\#(key)"output": "\#(output)", "sources": []}"#
        try Data(json.utf8).write(to: folder.appendingPathComponent("site.json"))
        return try SiteConfig.load(from: folder.appendingPathComponent("site.json"), displayPath: "site.json")
    }

    private func message<T>(_ body: () throws -> T) -> String {
        do {
            _ = try body()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test("the key is optional; a path resolves against the folder of site.json")
    func key() throws {
        #expect(try site(nil).staticFolder == nil)
        #expect(try site(nil).staticFiles().isEmpty)
        let config = try site("static", files: ["static/a.txt": "a"])
        #expect(config.staticFolder == config.file.deletingLastPathComponent().appendingPathComponent("static").standardizedFileURL)
    }

    @Test("a value of the wrong type, an empty one or a misspelt key is an error naming the key")
    func wrongValues() {
        let folder = URL(fileURLWithPath: "/srv/site/site.json")
        func decode(_ json: String) -> String {
            message { try SiteConfig.decode(Data(json.utf8), file: folder, displayPath: "site.json") }
        }
        #expect(decode(#"{"static": 3, "sources": []}"#) == "site.json:1:2: static: expected a string, found a number")
        #expect(decode(#"{"static": " ", "sources": []}"#) == "site.json:1:2: static: expected a non-empty string")
        #expect(decode(#"{"statik": "s", "sources": []}"#).hasPrefix("site.json:1:2: statik: unknown key; did you mean static?"))
    }

    @Test("files are read in path order, below folders, skipping names that start with a dot")
    func reads() throws {
        let config = try site(files: [
            "static/robots.txt": "User-agent: *\n", "static/images/b.svg": "<svg/>", "static/images/a.svg": "<svg/>",
            "static/.DS_Store": "x", "static/.well-known/x": "x", "static/.newsgen-site": "forged",
        ])
        let files = try config.staticFiles()
        #expect(files.map(\.path) == ["images/a.svg", "images/b.svg", "robots.txt"])
        #expect(files.last?.data == Data("User-agent: *\n".utf8))
    }

    @Test("a symbolic link inside the folder is refused, naming it")
    func symbolicLink() throws {
        let config = try site(files: ["static/a.txt": "a", "secret.txt": "secret"])
        let link = config.file.deletingLastPathComponent().appendingPathComponent("static/leak.txt")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../secret.txt")
        let text = message { try config.staticFiles() }
        #expect(text.hasPrefix("site.json:1:2: static: \""), "\(text)")
        #expect(text.contains("static/leak.txt\" is a symbolic link"), "\(text)")
        let folderLink = config.file.deletingLastPathComponent().appendingPathComponent("static/etc")
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(atPath: folderLink.path, withDestinationPath: "/etc")
        #expect(message { try config.staticFiles() }.contains("static/etc\" is a symbolic link"))
    }

    @Test("a folder named in site.json that is missing or a file is an error naming the key")
    func missing() throws {
        let missing = try site("nowhere")
        #expect(message { try missing.staticFiles() }.contains("static: \"\(missing.staticFolder?.path ?? "")\" does not exist"))
        let file = try site("static.txt", files: ["static.txt": "x"])
        #expect(message { try file.staticFiles() }.hasSuffix("static.txt\" is not a folder"))
    }

    @Test("the output may not be, contain or lie inside the static folder")
    func overlaps() throws {
        #expect(message { try site("public", files: ["public/a.txt": "a"]) }.contains("is the same folder as static ("))
        #expect(message { try site("public/images", files: ["public/images/a.txt": "a"]) }.contains("contains static ("))
        #expect(message { try site("static", files: ["static/a.txt": "a"], output: "static/public") }.contains("lies inside static ("))
    }
}
