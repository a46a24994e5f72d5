/// Bounded, printable excerpts of outside text (event ids, payloads, reasons)
/// for log messages, so no single line can grow with what a server or broker sends.
public enum LogExcerpt {
    /// Longest event id shown.
    public static let maxIdScalars = 64
    /// Longest widget or action name (from an event) shown.
    public static let maxNameScalars = 64
    /// Longest payload or reason shown.
    public static let maxTextScalars = 200

    /// An event id as logs show it; `-` when there is none.
    public static func id(_ id: String?) -> String {
        guard let id else { return "-" }
        return DisplayText.quoted(id, maxScalars: maxIdScalars)
    }

    /// A widget or action name as an event gave it (not yet checked against the config).
    public static func name(_ name: String) -> String {
        DisplayText.quoted(name, maxScalars: maxNameScalars)
    }

    /// An action as an event named it: `widget/action`, each part cut.
    public static func key(_ key: ActionKey) -> String {
        "\(name(key.slug))/\(name(key.actionId))"
    }

    /// A payload, a server's message or any other outside text.
    public static func text(_ text: String) -> String {
        DisplayText.quoted(text, maxScalars: maxTextScalars)
    }
}
