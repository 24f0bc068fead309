import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import NewsgenModel
@testable import NewsgenFetch
import NewsgenTestSupport

/// A source on a port nothing listens on fails as the README says: three attempts, 1 s and 2 s
/// apart (less up to half at random), not AsyncHTTPClient's own connect retries until its timeout.
@Suite("Refused connections")
struct RefusedConnectionTests {
    @Test("a closed port: three attempts in about 3 s, as the README promises, with the build's timeout")
    func refusedPort() async throws {
        let (socket, port) = try TestSupport.refusingPort()
        defer { close(socket) }
        let url = URL(string: "http://127.0.0.1:\(port)/feed.xml")!
        let sleeps = SleepLog()
        var standard = RetryPolicy.standard
        // The standard attempts and waits; the retry budget (45 s of the real clock) out of reach,
        // since the rest of the suite on two busy cores has stretched three refused connects past it.
        standard.budget = .seconds(3600)
        let realSleep = standard.sleep
        standard.sleep = { delay in
            sleeps.append(delay)
            try await realSleep(delay)
        }
        let policy = standard
        let started = ContinuousClock.now
        let error = try await withHTTPFetcher(timeout: .seconds(30)) { fetcher in
            await #expect(throws: SourceError.self) {
                try await FeedProvider(http: fetcher, articlesPerSource: 10, retry: policy)
                    .fetch(FetchRequest(source: SourceConfig(id: "closed", kind: .feed(.remote(url)))))
            }
        }
        let elapsed = ContinuousClock.now - started
        #expect(error?.message == "connection refused (3 attempts)")
        #expect(sleeps.all.count == 2, "two waits between three attempts")
        #expect(sleeps.all.first.map { $0 >= .milliseconds(500) && $0 <= .seconds(1) } == true, "\(sleeps.all)")
        #expect(sleeps.all.last.map { $0 >= .seconds(1) && $0 <= .seconds(2) } == true, "\(sleeps.all)")
        #expect(elapsed >= .milliseconds(1500), "\(elapsed)")
        // AsyncHTTPClient's own connect retries held each attempt until the 10 s connect timeout,
        // which ends in a timeout, not "connection refused": the message above is the proof that
        // no attempt waited for it. Three refused connects take about 3 s alone; the whole suite
        // on two busy cores has stretched them to 28 s (74 s beside a browser), so the time is only
        // a loose bound.
        #expect(elapsed < .seconds(150), "a refused port must not wait for the connect timeout: \(elapsed)")
    }

    @Test("one attempt is one connection: AsyncHTTPClient does not reconnect on its own")
    func oneConnectionPerAttempt() async throws {
        let listener = try AcceptAndClose()
        defer { listener.stop() }
        let url = URL(string: "http://127.0.0.1:\(listener.port)/feed.xml")!
        try await withHTTPFetcher(timeout: .seconds(30)) { fetcher in
            let (result, attempts) = await fetcher.get(url, retrying: .fast(attempts: 3))
            #expect(attempts == 3)
            guard case .failure = result else {
                Issue.record("a connection closed before any answer is a failure: \(result)")
                return
            }
        }
        #expect(listener.accepted == 3, "three attempts, three connections")
    }
}

/// A listener on 127.0.0.1 that accepts connections and closes them at once, counting them.
final class AcceptAndClose: @unchecked Sendable {
    let port: Int
    private let socket: Int32
    private let lock = NSLock()
    private var count = 0
    private var stopped = false

    init() throws {
        (socket, port) = try TestSupport.boundSocket(listen: 16)
        let socket = socket
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(socket, nil, nil)
                if client < 0 { return }
                let done = lock.withLock { () -> Bool in
                    if !stopped { count += 1 }
                    return stopped
                }
                close(client)
                if done { return }
            }
        }
    }

    var accepted: Int { lock.withLock { count } }

    func stop() {
        lock.withLock { stopped = true }
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}
