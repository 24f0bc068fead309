import Foundation
import Logging

extension HTTPFetcher {
    /// An answer worth asking again for: 429 (too many requests) and every 5xx.
    public static func isTransient(_ response: HTTPResponse) -> Bool {
        response.status == 429 || (500...599).contains(response.status)
    }

    /// The one GET with retry that every HTTP source takes (feeds, JSON news APIs, NewsAPI).
    ///
    /// A conditional GET when `etag` or `lastModified` is given (the validators of the last
    /// success). Retried under `policy`: on transport failures other than an oversized body or
    /// a redirect loop or a damaged encoding, and on the answers `retryWhen` accepts (by default 429 and 5xx), waiting
    /// at least what `Retry-After` asks. Each retry is logged at debug level as
    /// `<subject>: HTTP 503 from <host>; retrying in 1 s (attempt 2 of 3)`.
    /// Returns the last outcome and the attempts made.
    func get(
        _ url: URL, headers: [(String, String)] = [], etag: String? = nil, lastModified: String? = nil,
        retrying policy: RetryPolicy, retryWhen: (HTTPResponse) -> Bool = HTTPFetcher.isTransient,
        subject: String = "request", logger: Logger = .silent
    ) async -> (result: Result<HTTPResponse, HTTPFetchError>, attempts: Int) {
        var headers = headers
        if let etag { headers.append(("If-None-Match", etag)) }
        if let lastModified { headers.append(("If-Modified-Since", lastModified)) }
        let host = url.host ?? url.absoluteString
        return await policy.run { _ in
            do throws(HTTPFetchError) {
                return .success(try await get(url, headers: headers))
            } catch {
                return .failure(error)
            }
        } verdict: { result in
            switch result {
            case .success(let response):
                guard retryWhen(response) else { return .done }
                return .retry(after: RetryPolicy.retryAfter(response.header("Retry-After"), now: policy.now()))
            case .failure(.timedOut), .failure(.connection):
                return .retry(after: nil)
            case .failure(.tooLarge), .failure(.tooManyRedirects), .failure(.badEncoding):
                return .done
            }
        } willRetry: { result, delay, next in
            let what = switch result {
            case .success(let response): "HTTP \(response.status)"
            case .failure(let error): error.description
            }
            logger.debug("\(subject): \(what) from \(host); retrying in \(delay.secondsText) (attempt \(next) of \(policy.attempts))")
        }
    }
}
