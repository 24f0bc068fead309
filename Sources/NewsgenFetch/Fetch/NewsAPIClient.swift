package import Foundation
package import Logging
import NewsgenModel

/// A NewsAPI key. Prints as `[API key]` so interpolation cannot leak it; only `NewsAPIClient` reads `value`.
package struct APIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    fileprivate let value: String

    /// The key in `environment[variable]`, or `nil` when that is unset or blank.
    public init?(environment: [String: String], variable: String) {
        guard let raw = environment[variable]?.trimmedWhitespace, !raw.isEmpty else { return nil }
        value = raw
    }

    public var description: String { "[API key]" }
    public var debugDescription: String { "[API key]" }

    /// `text` with every occurrence of the key replaced, for text that came from a server.
    func redacting(_ text: String) -> String {
        text.replacingOccurrences(of: value, with: "[API key]")
    }
}

/// The `{status: "error", code, message}` answer of NewsAPI, as one sentence.
package struct NewsAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: String
    /// NewsAPI's own message, with the key redacted.
    public var message: String?
    public var httpStatus: Int?
    /// The environment variable the key comes from, to name in advice.
    public var keyVariable: String

    /// `NewsAPI apiKeyInvalid: the key in NEWS_API_KEY was not accepted … (NewsAPI: "Your API key is invalid…")`
    public var description: String {
        var text = "NewsAPI \(code): \(Self.explanation(code, keyVariable: keyVariable))"
        if let message, !message.isEmpty {
            text += " (NewsAPI: \"\(Text.serverMessage(message))\")"
        }
        return text
    }

    /// As the error of the source that asked.
    func sourceError(attempts: Int) -> SourceError {
        let said = message.flatMap { $0.isEmpty ? nil : Text.serverMessage($0) }
        return .newsAPI(code: code, explanation: Self.explanation(code, keyVariable: keyVariable), serverMessage: said, status: httpStatus, attempts: attempts)
    }

    /// What each documented error code means for a newsgen user.
    static func explanation(_ code: String, keyVariable: String) -> String {
        switch code {
        case "apiKeyMissing": "the request carried no API key; set \(keyVariable)"
        case "apiKeyInvalid": "the key in \(keyVariable) was not accepted; check it at https://newsapi.org/account"
        case "apiKeyDisabled": "the key in \(keyVariable) has been disabled"
        case "apiKeyExhausted": "the key in \(keyVariable) has no requests left today (the free plan allows 100 a day)"
        case "rateLimited": "too many requests in a short time; NewsAPI asks to back off for a while"
        case "sourcesTooMany": "more than 20 sources in one request"
        case "sourceDoesNotExist": "a requested source id does not exist (see `newsgen sources`)"
        case "parameterInvalid": "a parameter is not supported or has a bad value"
        case "parametersMissing": "required parameters are missing"
        case "maximumResultsReached": "the plan's limit of 100 results per query was reached"
        case "unexpectedError": "NewsAPI failed on its side; it should pass"
        default: "NewsAPI reported an error"
        }
    }
}

/// GET requests to NewsAPI, retried under a policy, answers checked for NewsAPI's error shape. The key goes only in
/// X-Api-Key, never a URL, log line or error: server messages are redacted, and the HTTP client must not follow
/// redirects, which would carry the header along (`HTTPFetcher(followRedirects: false)`).
package struct NewsAPIClient: Sendable {
    public var baseURL: URL
    public var key: APIKey
    /// The environment variable the key came from, named in advice.
    public var keyVariable: String
    public var http: HTTPFetcher
    public var retry: RetryPolicy
    public var logger: Logger

    public init(baseURL: URL, key: APIKey, keyVariable: String, http: HTTPFetcher, retry: RetryPolicy = .standard, logger: Logger = .silent) {
        self.baseURL = baseURL
        self.key = key
        self.keyVariable = keyVariable
        self.http = http
        self.retry = retry
        self.logger = logger
    }

    /// `{baseURL}/{endpoint}?{query}`, every value percent-encoded (a `+` in `q` stays a plus).
    func url(_ endpoint: String, _ query: [(String, String)]) -> URL {
        var url = baseURL
        for part in endpoint.split(separator: "/") { url.appendPathComponent(String(part)) }
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.percentEncodedQuery = query
            .map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }
            .joined(separator: "&")
        return components.url ?? url
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~,")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// Fetches an endpoint and returns the body of an `ok` answer. `subject` names it in retry logs; `timeout` is each
    /// request's deadline (the fetcher's own when `nil`).
    func get(_ endpoint: String, query: [(String, String)], subject: String, timeout: Duration? = nil) async throws(SourceError) -> Data {
        let url = url(endpoint, query)
        let host = url.host ?? baseURL.absoluteString
        let headers = [("X-Api-Key", key.value), ("Accept", "application/json")]
        let (result, attempts) = await http.get(url, headers: headers, timeout: timeout, retrying: retry, retryWhen: { response in
            // An exhausted daily quota does not come back within a build's patience.
            HTTPFetcher.isTransient(response) && Self.errorCode(in: response.body) != "apiKeyExhausted"
        }, subject: subject, logger: logger)
        let response: HTTPResponse
        switch result {
        case .failure(.connection(let reason)):
            throw .transport(.connection(key.redacting(reason)), host: host, attempts: attempts)
        case .failure(let error):
            throw .transport(error, host: host, attempts: attempts)
        case .success(let answer):
            response = answer
        }
        if let error = Self.decodeError(response.body, status: response.status, keyVariable: keyVariable, key: key) {
            throw error.sourceError(attempts: attempts)
        }
        guard (200..<300).contains(response.status) else {
            if (300..<400).contains(response.status) {
                throw .redirectRefused(status: response.status, host: host)
            }
            throw .httpStatus(response.status, host: host, attempts: attempts)
        }
        return response.body
    }

    private struct ErrorBody: Decodable {
        var status: String?
        var code: String?
        var message: String?
    }

    static func errorCode(in body: Data) -> String? {
        guard let answer = try? JSONDecoder().decode(ErrorBody.self, from: body), answer.status == "error" else { return nil }
        return answer.code
    }

    /// NewsAPI's error answer, whatever the HTTP status it came with.
    static func decodeError(_ body: Data, status: Int, keyVariable: String, key: APIKey) -> NewsAPIError? {
        guard let answer = try? JSONDecoder().decode(ErrorBody.self, from: body), answer.status == "error" else { return nil }
        return NewsAPIError(
            code: answer.code.map { Text.serverMessage(key.redacting($0), limit: 60) }.flatMap { $0.isEmpty ? nil : $0 } ?? "unknownError",
            message: answer.message.map(key.redacting),
            httpStatus: status,
            keyVariable: keyVariable
        )
    }
}
