import Foundation

/// Short, human descriptions of file system errors.
package enum FileProblem {
    package static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let posix = (nsError.userInfo[NSUnderlyingErrorKey] as? NSError), posix.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(posix.code)) {
            return String(cString: strerror(code.rawValue)).lowercased()
        }
        if nsError.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(nsError.code)) {
            return String(cString: strerror(code.rawValue)).lowercased()
        }
        switch nsError.code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
        default: return nsError.localizedDescription
        }
    }
}
