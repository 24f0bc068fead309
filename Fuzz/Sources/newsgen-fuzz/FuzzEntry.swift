import Foundation
import NewsgenFuzzing

// No main.swift: libFuzzer brings `main`, and calls `LLVMFuzzerTestOneInput` below.

/// The target this process fuzzes, from NEWSGEN_FUZZ_TARGET (Scripts/fuzz sets it).
let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["NEWSGEN_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("newsgen-fuzz: set NEWSGEN_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    return target
}()

/// libFuzzer's entry point: one input. A failed check aborts, so libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let problem = target.runBlocking(Data(bytes: start, count: count)) {
        fatalError("\(target.rawValue): \(problem)")
    }
    return 0
}
