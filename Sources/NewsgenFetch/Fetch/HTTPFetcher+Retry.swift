import Foundation
import Logging

extension HTTPFetcher {
    /// An answer worth asking again for: 429 (too many requests) and every 5xx.
    public static func isTransient(_ response: HTTPResponse) -> Bool {
        response.status == 429 || (500...599).contains(response.status)
    }

    /// The one GET with retry every HTTP source takes; conditional when `etag` or `lastModified` is given. Retried
    /// under `policy` on transport failures (except an oversized body, redirect loop or bad encoding) and on answers
    /// `retryWhen` accepts (default 429 and 5xx), waiting at least `Retry-After`; each retry is logged at debug level.
    /// Returns the last outcome and the attempts made. The first attempt has the whole `timeout` (the fetcher's when
    /// `nil`); a retry at most what is left of the policy's budget, so a silent server costs one deadline plus the
    /// retry's share, not one per attempt. A timeout names the full deadline.
    func get(
        _ url: URL, headers: [(String, String)] = [], etag: String? = nil, lastModified: String? = nil,
        timeout: Duration? = nil,
        retrying policy: RetryPolicy, retryWhen: (HTTPResponse) -> Bool = HTTPFetcher.isTransient,
        subject: String = "request", logger: Logger = .silent
    ) async -> (result: Result<HTTPResponse, HTTPFetchError>, attempts: Int) {
        var headers = headers
        if let etag { headers.append(("If-None-Match", etag)) }
        if let lastModified { headers.append(("If-Modified-Since", lastModified)) }
        let host = url.host ?? url.absoluteString
        let deadline = timeout ?? self.timeout
        let clock = ContinuousClock()
        let start = clock.now
        return await policy.run { attempt in
            let limit = policy.deadline(forAttempt: attempt, elapsed: clock.now - start, timeout: deadline)
            do throws(HTTPFetchError) {
                return .success(try await get(url, headers: headers, timeout: limit))
            } catch .timedOut {
                return .failure(.timedOut(seconds: deadline.seconds))
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
