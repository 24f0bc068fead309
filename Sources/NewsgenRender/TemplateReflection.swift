@_spi(Reflection) import Swift

/// The stored properties of a type, without an instance.
///
/// `Mirror` needs a value, and a page model's optional or empty-array fields hold none to reflect
/// on (a build with no failed source has no notice to look at), so the template check would
/// depend on the day's news. The standard library's `_forEachField` reads the type's field
/// metadata instead; it is SPI, so it stays behind this one function.
enum TemplateReflection {
    /// Calls `body` with each stored property's name and type; `false` when `type` is not a struct.
    @discardableResult
    static func forEachField(of type: Any.Type, _ body: (String, Any.Type) -> Void) -> Bool {
        _forEachField(of: type, options: []) { name, _, fieldType, _ in
            body(String(cString: name), fieldType)
            return true
        }
    }
}
