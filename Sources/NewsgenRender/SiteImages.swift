public import Foundation
public import NewsgenConfig
public import NewsgenModel

/// The images pages show and how (`"images"` in site.json). With `local`, an image is shown only when the site serves it
/// itself (`made`, by the URL the feed gave) or it is one of the site's own static files; any other is left out, never a
/// broken picture. With `remote` images are linked where the feed says they are; with `none` no image is shown.
public struct SiteImages: Sendable, Hashable {
    public var mode: SiteConfig.ImageMode
    public var made: [String: SiteImage]
    /// Where the variants' files are (the cache's image folder); `nil` when nothing is made.
    public var folder: URL?

    public init(mode: SiteConfig.ImageMode, made: [String: SiteImage] = [:], folder: URL? = nil) {
        self.mode = mode
        self.made = made
        self.folder = folder
    }

    /// Every image linked as the feed gave it (what a site built without the image stage shows).
    public static let linked = SiteImages(mode: .remote)

    /// The `img-src` of the pages' Content-Security-Policy.
    var contentSecurityPolicySources: String {
        mode == .remote ? "'self' https: http:" : "'self'"
    }
}

/// One image the site serves: its variants, named by the hash of the original's bytes.
public struct SiteImage: Sendable, Hashable {
    public var hash: String
    /// Narrowest first.
    public var variants: [PixelSize]

    public init(hash: String, variants: [PixelSize]) {
        self.hash = hash
        self.variants = variants
    }

    /// The output path of a variant: `images/<hash>-<width>.webp`.
    public func path(_ variant: PixelSize) -> String {
        SitePaths.image(hash: hash, width: variant.width)
    }

    /// The variant `src` names: 640 px wide, or the widest narrower one.
    var fallback: PixelSize? {
        variants.last { $0.width <= 640 } ?? variants.first
    }
}

/// An image as a page shows it: `src`, and for an image the site serves, its `srcset` (every variant), `sizes` and the
/// fallback's `width` and `height` (so the page keeps its place while it loads).
struct ImageSetModel: Sendable, Hashable {
    var srcset: String
    var sizes: String
    var width: Int
    var height: Int
}
