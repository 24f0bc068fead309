public import Logging

extension Logger {
    /// A logger that drops everything, for library values built without one.
    public static var silent: Logger {
        Logger(label: "newsgen.silent") { _ in SwiftLogNoOpLogHandler() }
    }
}
