/// Text made safe for HTML, in element content and in quoted attribute values
/// alike: `&`, `<`, `>`, `"` and `'` become character references, so a device
/// name or payload such as `<script>` is shown as text and never read as markup.
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Outside text for a page: control characters replaced, at most
    /// `maxScalars` characters (an ellipsis when cut), then escaped.
    public static func excerpt(_ text: String, maxScalars: Int = 200) -> String {
        escape(DisplayText.quoted(text, maxScalars: maxScalars))
    }
}
