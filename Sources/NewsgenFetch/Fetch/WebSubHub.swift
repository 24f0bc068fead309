public import Foundation

/// A WebSub hub (W3C WebSub), told that feeds changed as hubs take it from a publisher: one POST of
/// `hub.mode=publish` with a `hub.url` for each feed. The hub then fetches the feeds and sends them to their subscribers.
public struct WebSubHub: Sendable {
    public var url: URL
    public var http: HTTPFetcher

    public init(url: URL, http: HTTPFetcher) {
        self.url = url
        self.http = http
    }

    /// What a hub answered.
    public enum Outcome: Sendable, Equatable {
        /// A 2xx status.
        case accepted(status: Int)
        /// Another status, or no answer: why, as a sentence's end ("answered 503", "timed out after 5 s").
        case failed(String)
    }

    /// Tells the hub that `feeds` changed. A 5xx status or no answer is tried once more; each attempt ends at `timeout`.
    public func publish(_ feeds: [URL], timeout: Duration) async -> Outcome {
        let form = [(name: "hub.mode", value: "publish")] + feeds.map { (name: "hub.url", value: $0.absoluteString) }
        var outcome = Outcome.failed("was not asked")
        for _ in 0..<2 {
            do {
                let response = try await http.post(url, form: form, timeout: timeout)
                if (200..<300).contains(response.status) { return .accepted(status: response.status) }
                outcome = .failed("answered \(response.status)")
                // A 4xx is the hub refusing the request itself: asking again gets the same answer.
                if response.status < 500 { return outcome }
            } catch {
                outcome = .failed(error.description)
            }
        }
        return outcome
    }
}
