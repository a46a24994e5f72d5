/// The `url` rule of the Webhook Widget protocol: a web address or another
/// app's scheme, never the app's own `webhookwidget:`, nor `javascript:`,
/// `data:` or `file:`.
public enum WebhookWidgetURL {
    /// Schemes the app refuses, lower case.
    public static let refusedSchemes: Set<String> = ["webhookwidget", "javascript", "data", "file"]

    /// Whether `url` names a scheme and it is not a refused one.
    public static func isAllowed(_ url: String) -> Bool { problem(with: url) == nil }

    /// Why `url` is not allowed, or nil when it is.
    public static func problem(with url: String) -> String? {
        guard let scheme = scheme(of: url) else { return "url has no scheme (a web address or an app's scheme)" }
        if refusedSchemes.contains(scheme) { return "url scheme \(scheme): is refused" }
        return nil
    }

    /// The lower-cased scheme, read the way a browser does: tabs and line breaks
    /// anywhere and leading control characters or spaces are ignored, so
    /// `" java\tscript:"` is still `javascript`.
    public static func scheme(of url: String) -> String? {
        let cleaned = url.unicodeScalars
            .filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
            .drop(while: { $0.value <= 0x20 })
        guard let colon = cleaned.firstIndex(of: ":") else { return nil }
        let scheme = cleaned[cleaned.startIndex..<colon]
        guard let first = scheme.first, isASCIILetter(first),
              scheme.allSatisfy({ isASCIILetter($0) || isASCIIDigit($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return String(String.UnicodeScalarView(scheme)).lowercased()
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}
