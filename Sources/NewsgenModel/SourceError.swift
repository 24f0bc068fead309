public import Foundation

/// Why one source could not be fetched; it reads as the end of "source X: …". Cases carry the fields a caller
/// needs. `message` is for the public pages and the cache: never a server path or key. `description` is the
/// log line, with details only the site's owner should see.
public enum SourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A non-success status (after `attempts`); `serverMessage` is its error body, shortened and cleaned.
    case httpStatus(Int, host: String, serverMessage: String? = nil, attempts: Int = 1)
    /// No usable answer (after `attempts`). `host` is named when given (JSON and NewsAPI sources).
    case transport(TransportFailure, host: String? = nil, attempts: Int = 1)
    /// The build's fetch budget (`fetchBudgetSeconds`) ran out before the source was fetched.
    case budgetExhausted(seconds: Double)
    /// NewsAPI answered with a redirect, which is not followed (the key would go along).
    case redirectRefused(status: Int, host: String)
    /// The bytes are not a feed newsgen reads; `reason` is the parser's sentence.
    case notAFeed(reason: String)
    /// A JSON news API's answer is not the `news` payload. `name` is the host or file name; `path` goes only to the log.
    case badPayload(PayloadProblem, name: String, path: String? = nil)
    /// A NewsAPI answer that lacks the list it was asked for (`articles`, `sources`).
    case missingList(String, host: String)
    /// A local source file could not be read.
    case localFile(LocalFileProblem, file: URL)
    /// NewsAPI's error answer. `explanation` is for a newsgen user; `serverMessage` is NewsAPI's, key redacted.
    case newsAPI(code: String, explanation: String, serverMessage: String?, status: Int?, attempts: Int = 1)
    /// No NewsAPI key in `variable`, where a command needs one (with advice on getting one).
    case missingKey(variable: String)
    /// The provider cannot work in this build; `reason` starts the sentence ("NEWS_API_KEY is not set").
    case providerUnavailable(reason: String)
    /// `--offline`: no request may be made.
    case offline
    /// The source was handed to a provider of another kind ("a feed source").
    case wrongKind(expected: String)
    /// Any other sentence, such as an error read back from the cache.
    case other(message: String, status: Int?, detail: String?)

    /// Why a request produced no usable response.
    public enum TransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The request's deadline passed: no complete answer within `seconds`.
        case timedOut(seconds: Double)
        case tooLarge(limit: Int)
        case tooManyRedirects
        /// The body is not the gzip or deflate stream its Content-Encoding says.
        case badEncoding
        /// Connecting or talking to the server failed: `reason` says how ("connection refused").
        case connection(String)

        /// The server did not answer at all (unresolvable, refused, silent), rather than answering badly.
        public var isNoAnswer: Bool {
            switch self {
            case .timedOut, .connection: true
            case .tooLarge, .tooManyRedirects, .badEncoding: false
            }
        }

        public var description: String {
            switch self {
            case .timedOut(let seconds): "no complete answer within \(SourceError.seconds(seconds)) s"
            case .tooLarge(let limit): "the response is larger than \(limit / 1_048_576) MiB"
            case .tooManyRedirects: "too many redirects"
            case .badEncoding: "the response's gzip or deflate encoding is damaged"
            case .connection(let reason): reason
            }
        }
    }

    /// What is wrong with a JSON news API's answer.
    public enum PayloadProblem: Sendable, Hashable {
        case notAnObject
        /// `status` is not "ok"; `detail` is the server's message or code.
        case status(String, detail: String?)
        case noNewsList

        var sentence: String {
            switch self {
            case .notAnObject: "is not a JSON object (expected {\"status\": \"ok\", \"news\": […]})"
            case .status(let status, let detail): "answered with status \"\(status)\"" + (detail.map { ": \($0)" } ?? "")
            case .noNewsList: "has no \"news\" list (expected {\"status\": \"ok\", \"news\": […]})"
            }
        }
    }

    /// Why a local file could not be read.
    public enum LocalFileProblem: Sendable, Hashable {
        case tooLarge(limit: Int)
        /// `reason` is the system's, in words ("no such file").
        case unreadable(String)
    }

    /// A sentence of its own, for what no case describes.
    public init(_ message: String, status: Int? = nil, detail: String? = nil) {
        self = .other(message: message, status: status, detail: detail)
    }

    /// HTTP status, when the server answered.
    public var status: Int? {
        switch self {
        case .httpStatus(let status, _, _, _): status
        case .redirectRefused(let status, _): status
        case .newsAPI(_, _, _, let status, _): status
        case .other(_, let status, _): status
        default: nil
        }
    }

    /// Attempts made, when the source was requested over HTTP.
    public var attempts: Int? {
        switch self {
        case .httpStatus(_, _, _, let attempts), .transport(_, _, let attempts), .newsAPI(_, _, _, _, let attempts): attempts
        default: nil
        }
    }

    /// For the pages: no server paths.
    public var message: String {
        sentence(paths: false)
    }

    /// The log line's form: what `message` says, with local paths in full.
    public var description: String {
        sentence(paths: true)
    }

    private func sentence(paths: Bool) -> String {
        switch self {
        case .httpStatus(let status, let host, let serverMessage, let attempts):
            "HTTP \(status) from \(host)" + (serverMessage.map { ": \($0)" } ?? "") + Self.tries(attempts)
        case .transport(let failure, let host, let attempts):
            failure.description + (host.map { " from \($0)" } ?? "") + Self.tries(attempts)
        case .budgetExhausted(let seconds):
            "stopped by the \(Self.seconds(seconds)) s fetch budget"
        case .redirectRefused(let status, let host):
            "HTTP \(status) from \(host): NewsAPI requests do not follow redirects (the key would go along); check newsapi.baseURL"
        case .notAFeed(let reason):
            reason
        case .badPayload(let problem, let name, let path):
            "\(paths ? path ?? name : name) \(problem.sentence)"
        case .missingList(let list, let host):
            "NewsAPI's answer from \(host) has no list of \(list)"
        case .localFile(let problem, let file):
            switch problem {
            case .tooLarge(let limit):
                "\(paths ? file.path : file.lastPathComponent) is larger than \(limit / 1_048_576) MiB"
            case .unreadable(let reason):
                "cannot read \(paths ? file.path : file.lastPathComponent) (\(reason))"
            }
        case .newsAPI(let code, let explanation, let serverMessage, _, let attempts):
            "NewsAPI \(code): \(explanation)" + (serverMessage.map { " (NewsAPI: \"\($0)\")" } ?? "") + Self.tries(attempts)
        case .missingKey(let variable):
            "\(variable) is not set: get a key at https://newsapi.org/register and export \(variable)=…"
        case .providerUnavailable(let reason):
            reason
        case .offline:
            "not fetched: offline"
        case .wrongKind(let expected):
            "is not \(expected)"
        case .other(let message, _, let detail):
            paths ? detail ?? message : message
        }
    }

    /// "30", "1.5": whole seconds without a fraction.
    package static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%g", value)
    }

    private static func tries(_ attempts: Int) -> String {
        attempts > 1 ? " (\(attempts) attempts)" : ""
    }
}
