/// A secret value (API token, password) that never shows itself in logs or errors:
/// `description`, `debugDescription` and the mirror all say `<redacted>`.
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The secret itself; pass it only to the code that needs it (e.g. an HTTP header).
    public let revealedValue: String

    /// Wraps a secret value.
    public init(_ revealedValue: String) {
        self.revealedValue = revealedValue
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
