import CFuzzerDriver
import Foundation
import NewsgenFuzzing

/// The target this process fuzzes, from NEWSGEN_FUZZ_TARGET (Scripts/fuzz sets it).
enum Selected {
    static let target: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["NEWSGEN_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("newsgen-fuzz: set NEWSGEN_FUZZ_TARGET to one of: \(names)\n".utf8))
            exit(2)
        }
        return target
    }()
}

/// libFuzzer's entry point: one input. A failed check aborts, so libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    if let problem = Selected.target.runBlocking(data) {
        fatalError("\(Selected.target.rawValue): \(problem)")
    }
    return 0
}

_ = Selected.target
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
