import Foundation

/// Short, human descriptions of file system errors.
package enum FileProblem {
    package static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        // The system's reason: the underlying error's (Foundation's file errors wrap one), or the error's own.
        let candidates = [nsError.userInfo[NSUnderlyingErrorKey] as? NSError, nsError].compactMap { $0 }
        for posix in candidates where posix.domain == NSPOSIXErrorDomain {
            if let code = POSIXErrorCode(rawValue: Int32(posix.code)) { return String(cString: strerror(code.rawValue)).lowercased() }
        }
        switch nsError.code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
        default: return nsError.localizedDescription
        }
    }
}
