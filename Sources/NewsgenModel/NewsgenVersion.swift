/// newsgen's version, as sent in the User-Agent and written into generated files.
public enum NewsgenVersion {
    public static let string = "0.1.0"
    public static let userAgent = "newsgen/\(string) (+https://github.com/newsgen/newsgen; static news site generator)"
}
