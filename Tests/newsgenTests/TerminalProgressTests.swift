import Foundation
#if canImport(Glibc)
import Glibc
#endif
import NewsgenTestSupport
import Testing

/// The updating line `newsgen build` shows when stderr is a terminal, and its absence otherwise.
@Suite("newsgen build: progress on a terminal")
struct TerminalProgressTests {
    let cli = CLITests()

    /// Runs newsgen with stderr on a pseudo-terminal (stdout on a pipe) and returns what the
    /// terminal received, byte for byte, and the exit status.
    func onTerminal(_ arguments: [String], in folder: URL) async throws -> (status: Int32, terminal: String) {
        try await TestSupport.onOwnThread {
            var primary: Int32 = -1, replica: Int32 = -1
            guard openpty(&primary, &replica, nil, nil, nil) == 0 else { throw TestSupportError("openpty failed: errno \(errno)") }
            defer { close(primary) }
            let process = Process()
            process.executableURL = CLITests.binary
            process.arguments = arguments
            process.currentDirectoryURL = folder
            var environment = ProcessInfo.processInfo.environment
            environment["TERM"] = "xterm"
            process.environment = environment
            let terminal = FileHandle(fileDescriptor: replica, closeOnDealloc: false)
            process.standardError = terminal
            process.standardOutput = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            // Only the child holds the replica now: reading the primary ends (EIO) when it exits.
            close(replica)
            var received = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(primary, $0.baseAddress, $0.count) }
                if count > 0 {
                    received += buffer[0..<count]
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: received, as: UTF8.self))
        }
    }

    @Test("on a terminal: counts redrawn in place, cleared before a warning and at the end; none with --quiet")
    func terminal() async throws {
        let site = try brokenSite()
        let run = try await onTerminal(["build", "--offline"], in: site)
        #expect(run.status == 3, "\(run.terminal)")
        #expect(run.terminal.contains("\rfetching 0/8 sources\u{1B}[K"), "\(run.terminal.debugDescription)")
        #expect(run.terminal.contains("\rrendering "), "\(run.terminal.debugDescription)")
        // The warning starts on a cleared line and is the only line left behind.
        let warning = try #require(run.terminal.range(of: "newsgen: warning: source \"gone\""), "\(run.terminal.debugDescription)")
        #expect(run.terminal[..<warning.lowerBound].hasSuffix("\r\u{1B}[K"), "\(run.terminal.debugDescription)")
        #expect(run.terminal.utf8.filter { $0 == 0x0A }.count == 1, "\(run.terminal.debugDescription)")
        #expect(run.terminal.hasSuffix("\r\u{1B}[K"), "\(run.terminal.debugDescription)")

        // --quiet asks for errors only: no progress line either (--verbose's stage lines neither).
        let quiet = try await onTerminal(["build", "--offline", "--quiet"], in: site)
        #expect(quiet.status == 3)
        #expect(quiet.terminal.isEmpty, "\(quiet.terminal.debugDescription)")
    }

    @Test("not a terminal (cron): stderr holds exactly the warning lines, no progress bytes")
    func pipe() async throws {
        let site = try brokenSite()
        let run = try await cli.newsgen(["build", "--offline"], in: site)
        #expect(run.status == 3)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "one line, ending in a newline: \(run.stderr.debugDescription)")
        #expect(lines[0].hasPrefix("newsgen: warning: source \"gone\": "), "\(run.stderr.debugDescription)")
        #expect(!run.stderr.contains("\r") && !run.stderr.contains("\u{1B}"))
    }

    /// The sample site with one more source whose local feed does not exist (a warning, exit 3).
    func brokenSite() throws -> URL {
        let site = try cli.sampleSite()
        let file = site.appendingPathComponent("site.json")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: #"{ "id": "touchline","#, with: #"{ "id": "gone", "feed": "Samples/feeds/gone.xml" },\#n    { "id": "touchline","#)
        try Data(text.utf8).write(to: file)
        return site
    }
}
