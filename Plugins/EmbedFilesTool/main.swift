import Foundation

// embed-files OUTPUT NAME=FOLDER ...
// Writes OUTPUT, a Swift file with `enum EmbeddedFiles { static let NAME: [String: String] }`
// for each folder: every regular, non-hidden file below it by its relative path, as UTF-8 text.

/// A Swift string literal for `text`, every character that needs it escaped.
func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": result += "\\\\"
        case "\"": result += "\\\""
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            result += "\\u{\(String(scalar.value, radix: 16))}"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("embed-files: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first, arguments.count > 1 else {
    fail("usage: embed-files OUTPUT NAME=FOLDER ...")
}
var swift = """
    // Generated at build time by the EmbedFiles plugin (Plugins/EmbedFiles). Edit the files themselves.

    /// Text files embedded into the binary, by group, then by path below the group's folder.
    enum EmbeddedFiles {

    """
for argument in arguments.dropFirst() {
    guard let equals = argument.firstIndex(of: "=") else { fail("expected NAME=FOLDER, found \(argument)") }
    let name = String(argument[..<equals])
    let folder = URL(fileURLWithPath: String(argument[argument.index(after: equals)...]), isDirectory: true)
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
    let prefix = folder.standardizedFileURL.path + "/"
    var entries: [(String, String)] = []
    for case let file as URL in enumerator?.allObjects ?? [] {
        guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
        let path = file.standardizedFileURL.path
        guard path.hasPrefix(prefix) else { fail("\(path) is not below \(prefix)") }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            fail("\(path): cannot be read as UTF-8 text")
        }
        entries.append((String(path.dropFirst(prefix.count)), text))
    }
    guard !entries.isEmpty else { fail("\(folder.path): no files to embed") }
    swift += "    static let \(name): [String: String] = [\n"
    for (path, text) in entries.sorted(by: { $0.0 < $1.0 }) {
        swift += "        \(literal(path)): \(literal(text)),\n"
    }
    swift += "    ]\n\n"
}
swift += "}\n"
do {
    try Data(swift.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    fail("\(output): cannot be written (\(error.localizedDescription))")
}
