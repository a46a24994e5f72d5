/// What the service checks in a widget's content and refuses with 400 or 413
/// (see `aivi-api.md`), so that `check` refuses it first, on the right line.
public enum SwitchboardContentRules {
    /// **[assumed]** The largest PATCH body the service accepts; larger gets 413.
    public static let maxPatchBodyBytes = 64 * 1024

    /// Template fields that, when present, must be JSON strings.
    public static let stringFields = ["label", "icon", "color", "subtitle"]

    /// Why `color` would be refused, or nil: a value starting with `#` must be
    /// `#RRGGBB` (six hex digits); anything else is a named color.
    public static func colorProblem(_ color: String) -> String? {
        guard color.hasPrefix("#") else { return nil }
        let digits = color.unicodeScalars.dropFirst()
        let isHex = digits.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0) }
        guard digits.count == 6, isHex else {
            return "must be a named color (yellow, cyan, ...) or '#RRGGBB' with six hex digits (it is '\(color)'); "
                + "the service refuses the whole widget otherwise"
        }
        return nil
    }
}
