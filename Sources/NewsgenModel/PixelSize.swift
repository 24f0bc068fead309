/// An image's width and height in pixels: a variant's size as libvips makes it, the cache keeps it and a page shows it.
public struct PixelSize: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
