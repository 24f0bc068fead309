import Logging

/// A log handler that wraps another: its metadata and level are the wrapped handler's, and
/// only `log(event:)` is its own (to drop lines, or to keep some aside).
protocol ForwardingLogHandler: LogHandler {
    var base: any LogHandler { get set }
}

extension ForwardingLogHandler {
    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }
}
