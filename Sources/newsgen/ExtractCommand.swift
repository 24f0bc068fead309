import ArgumentParser
import Foundation
import NewsgenExtract
import NewsgenFetch
import NewsgenModel

struct ExtractCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Print the main article of a web page: its text, sanitized HTML, or both with metadata.",
        discussion: """
            Reads an HTML file or fetches an http(s) page (at most 5 MB, text/html or application/xhtml+xml \
            only) and keeps its main article, without navigation, share bars, comments, related-story lists, \
            cookie banners and forms. --format text prints the article's text, paragraphs separated by blank \
            lines; html its HTML as newsgen sanitizes it, with absolute URLs; json {title, byline, published, \
            siteName, image, language, html, text}, null for what the page does not say. Relative URLs of a \
            file resolve against --url when given (the page's original address), else the file's own.

            Examples:
              newsgen extract https://www.example.org/news/2026/story.html
              newsgen extract saved-page.html --url https://www.example.org/news/story.html --format json

            Exit status: 0 an article was found; 1 none was (the reason on stderr), or the page could not be \
            fetched; 2 usage error.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, html, json
    }

    /// The largest page fetched.
    static let maximumBytes = 5 * 1_048_576

    @Argument(help: "An HTML file, or the http(s) address of a page.")
    var page: String

    @Option(help: "text (the article's paragraphs), html (sanitized) or json (with metadata).")
    var format: Format = .text

    @Option(help: "The page's original address, for a file: relative links and images resolve against it.")
    var url: String?

    @Option(help: .hidden)
    var timeoutSeconds: Double = 30

    /// Extracts the page this many times and prints the average time per extraction on stderr (for measuring).
    @Option(help: .hidden)
    var `repeat`: Int = 1

    private var isWebAddress: Bool {
        guard let scheme = URL(string: page)?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    func validate() throws {
        if let url {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host?.isEmpty == false else {
                throw ValidationError("--url expects an http(s) URL, such as https://www.example.org/news/story.html.")
            }
        }
        if `repeat` < 1 { throw ValidationError("--repeat expects a positive number.") }
        if !isWebAddress {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: page, isDirectory: &isFolder) else {
                throw ValidationError("\(page) does not exist; give an HTML file or an http(s) address.")
            }
            if isFolder.boolValue { throw ValidationError("\(page) is a folder; give an HTML file or an http(s) address.") }
        }
    }

    func run() async throws {
        let (bytes, address, charset) = try await load()
        let extractor = ArticleExtractor()
        let article: ExtractedArticle
        do throws(ExtractionFailure) {
            article = try extractor.extract(html: bytes, url: address, declaredCharset: charset)
            if `repeat` > 1 { try measure(extractor, bytes, address, charset) }
        } catch {
            throw CommandFailure(Newsgen.sentenceCase(error.reason))
        }
        switch format {
        case .text: print(article.text)
        case .html: print(article.html)
        case .json: print(try Self.json(article))
        }
    }

    /// The page's bytes, the address its links resolve against, and the charset its server declared.
    private func load() async throws -> ([UInt8], URL, String?) {
        guard isWebAddress, let address = URL(string: page) else {
            let file = URL(fileURLWithPath: page).standardizedFileURL
            let data: Data
            do {
                data = try Data(contentsOf: file)
            } catch {
                throw CommandFailure("\(page) could not be read: \(error.localizedDescription)")
            }
            return ([UInt8](data), url.flatMap(URL.init(string:)) ?? file, nil)
        }
        let http = HTTPFetcher(timeout: .milliseconds(Int(timeoutSeconds * 1000)), maximumBytes: Self.maximumBytes)
        let result: Result<HTTPResponse, HTTPFetchError>
        do throws(HTTPFetchError) {
            result = .success(try await http.get(address, headers: [("Accept", "text/html, application/xhtml+xml;q=0.9")]))
        } catch {
            result = .failure(error)
        }
        try? await http.shutdown()
        let response: HTTPResponse
        switch result {
        case .success(let answer): response = answer
        case .failure(let error): throw CommandFailure("\(page) could not be fetched: \(error)")
        }
        guard (200..<300).contains(response.status) else {
            throw CommandFailure("\(page) could not be fetched: the server answered HTTP \(response.status)")
        }
        let contentType = ContentType(response.header("Content-Type"))
        guard contentType.isHTML else {
            throw CommandFailure("\(page) is not a web page: its content type is \(contentType.mediaType ?? "not given") (newsgen extracts articles from text/html and application/xhtml+xml)")
        }
        return ([UInt8](response.body), url.flatMap(URL.init(string:)) ?? address, contentType.charset)
    }

    /// Extracts `repeat - 1` more times and prints the CPU time per extraction: the process's own time, so a busy
    /// machine's other work does not count.
    private func measure(_ extractor: ArticleExtractor, _ bytes: [UInt8], _ address: URL, _ charset: String?) throws(ExtractionFailure) {
        func cpuMilliseconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
        }
        let start = cpuMilliseconds()
        for _ in 1..<`repeat` { _ = try extractor.extract(html: bytes, url: address, declaredCharset: charset) }
        let milliseconds = (cpuMilliseconds() - start) / Double(`repeat` - 1)
        FileHandle.standardError.write(Data(String(format: "newsgen: %.2f ms per extraction (CPU time, %d runs)\n", milliseconds, `repeat` - 1).utf8))
    }

    /// `{title, byline, published, siteName, image, language, html, text}`, null for what is missing.
    static func json(_ article: ExtractedArticle) throws -> String {
        struct Output: Encodable {
            var article: ExtractedArticle

            enum Key: String, CodingKey {
                case title, byline, published, siteName, image, language, html, text
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(article.title, forKey: .title)
                try container.encode(article.byline, forKey: .byline)
                try container.encode(article.published.map(Dates.rfc3339), forKey: .published)
                try container.encode(article.siteName, forKey: .siteName)
                try container.encode(article.image?.absoluteString, forKey: .image)
                try container.encode(article.language, forKey: .language)
                try container.encode(article.html, forKey: .html)
                try container.encode(article.text, forKey: .text)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Output(article: article)), as: UTF8.self)
    }
}

/// A Content-Type header's media type and charset.
struct ContentType {
    var mediaType: String?
    var charset: String?

    init(_ header: String?) {
        let parts = (header ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        mediaType = parts.first.map { $0.lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                charset = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            }
        }
    }

    /// HTML, or no type at all (servers that say nothing mostly serve HTML).
    var isHTML: Bool {
        guard let mediaType else { return true }
        return mediaType == "text/html" || mediaType == "application/xhtml+xml"
    }
}
