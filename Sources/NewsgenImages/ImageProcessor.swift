public import Foundation
public import NewsgenModel
import CVips
import Synchronization

/// An image made fit for the site: re-encoded as WebP at the widths the theme shows, never enlarged, upright, in sRGB,
/// without metadata.
public struct ProcessedImage: Sendable, Hashable {
    public struct Variant: Sendable, Hashable {
        public var size: PixelSize
        public var data: Data
    }

    /// Narrowest first; the last is the widest the site shows (the original's width when it is narrower than the widest).
    public var variants: [Variant]

    /// The file extension of every variant.
    public static let fileExtension = "webp"
}

/// Why an image is not shown. Each is final for the bytes given: the same bytes are refused the same way.
public enum ImageRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not an image libvips can read safely (HTML, SVG, PDF, an unknown format).
    case notAnImage(format: String?)
    /// Larger than `ImageProcessor.maximumPixels` (a decompression bomb, or far more than a page needs).
    case tooManyPixels(width: Int, height: Int)
    /// Truncated or damaged.
    case damaged(String)

    public var description: String {
        switch self {
        case .notAnImage(let format?): "it is not a JPEG, PNG, WebP or GIF image (\(format))"
        case .notAnImage(nil): "it is not an image"
        case .tooManyPixels(let width, let height): "it is \(width)×\(height) pixels, more than \(ImageProcessor.maximumPixels / 1_000_000) million"
        case .damaged(let reason): "it cannot be decoded (\(reason))"
        }
    }
}

/// Turns fetched image bytes into the site's variants with libvips. Only JPEG, PNG, WebP and GIF are read (libvips'
/// untrusted loaders are blocked, SVG is never read), the size is checked from the header before anything is decoded,
/// an animated GIF gives its first frame, and a truncated file is refused.
public enum ImageProcessor {
    /// The widths the theme asks for (`srcset`).
    public static let widths = [320, 640, 1280]
    /// The most pixels an image may have.
    public static let maximumPixels = 40_000_000
    static let quality: Int32 = 75
    /// The loaders newsgen accepts, by the name libvips gives them.
    static let formats = ["Jpeg": "JPEG", "Png": "PNG", "Webp": "WebP", "Gif": "GIF"]

    private static let started: Bool = newsgen_vips_start() == 0

    public static func process(_ bytes: Data) throws(ImageRefusal) -> ProcessedImage {
        guard started else { throw .damaged("libvips could not start") }
        let result: Result<ProcessedImage, ImageRefusal> = bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return .failure(.notAnImage(format: nil)) }
            guard let loader = newsgen_vips_loader(base, buffer.count).map({ String(cString: $0) }) else {
                newsgen_vips_error_clear()
                return .failure(.notAnImage(format: nil))
            }
            guard formats.keys.contains(where: { loader.hasPrefix("VipsForeignLoad\($0)") || loader.hasPrefix("VipsForeignLoadNs\($0.lowercased())") }) else {
                return .failure(.notAnImage(format: loader.replacingOccurrences(of: "VipsForeignLoad", with: "").replacingOccurrences(of: "Buffer", with: "")))
            }
            var (width, height, pages): (Int32, Int32, Int32) = (0, 0, 0)
            guard newsgen_vips_header(base, buffer.count, &width, &height, &pages) == 0 else { return .failure(.damaged(lastError())) }
            guard Int(width) * Int(height) <= maximumPixels, width > 0, height > 0 else {
                return .failure(.tooManyPixels(width: Int(width), height: Int(height)))
            }
            // Decoded once at the widest width, each variant shrunk from that.
            guard let decoded = newsgen_vips_decode(base, buffer.count, Int32(widths.max() ?? 1280)) else {
                return .failure(.damaged(lastError()))
            }
            defer { g_object_unref(decoded) }
            var variants: [ProcessedImage.Variant] = []
            for target in widths {
                var output: UnsafeMutableRawPointer?
                var length = 0
                var (outWidth, outHeight): (Int32, Int32) = (0, 0)
                guard newsgen_vips_webp(decoded, Int32(target), quality, &output, &length, &outWidth, &outHeight) == 0,
                      let output else {
                    return .failure(.damaged(lastError()))
                }
                let data = Data(bytes: output, count: length)
                g_free(output)
                // Never enlarged: once a width gives the image's own size, wider ones would give it again.
                if let last = variants.last, last.size.width == Int(outWidth) { break }
                variants.append(ProcessedImage.Variant(size: PixelSize(width: Int(outWidth), height: Int(outHeight)), data: data))
                if Int(outWidth) < target { break }
            }
            return .success(ProcessedImage(variants: variants))
        }
        return try result.get()
    }

    /// libvips' error message, first line, cleared after.
    private static func lastError() -> String {
        let message = newsgen_vips_error().map { String(cString: $0) } ?? ""
        newsgen_vips_error_clear()
        let line = message.split(separator: "\n").first.map(String.init) ?? ""
        return line.isEmpty ? "libvips gave no reason" : line
    }
}
