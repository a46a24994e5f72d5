/// A `widget.action.v1` press, read from an event's JSON data.
public struct PressEnvelope: Sendable, Equatable {
    /// The only event type the bridge acts on.
    public static let eventType = "widget.action.v1"
    /// The longest event id accepted, in UTF-8 bytes. The service's ids are
    /// about 20 (`evt_01JD9Q6W3K8Z`); ids of unsafe actions are persisted, so an
    /// absurd one is refused rather than written.
    public static let maxIdBytes = 128

    public var id: String
    public var createdAtMs: Int64?
    public var expiresAtMs: Int64
    public var widget: String
    public var action: String
    public var kind: ActionKind
    /// Toggles: the state asked for.
    public var value: Bool?

    /// Why an event's data is not a usable press.
    public enum ReadError: Error, Equatable {
        case unknownType(String)
        case malformed(String)
        /// An id longer than `maxIdBytes` or holding control characters.
        case absurdId(byteCount: Int)
    }

    /// Reads a press from a stream event; unknown types and malformed data throw.
    public static func read(_ event: StreamEvent) throws(ReadError) -> PressEnvelope {
        let json: JSONValue
        do { json = try JSONValue.parse(event.data) } catch { throw .malformed("data is not JSON (\(error))") }
        guard case .object = json else { throw .malformed("data is not a JSON object") }
        let type = json["type"]?.stringValue ?? event.type
        guard type == eventType else { throw .unknownType(type) }
        guard let id = json["id"]?.stringValue ?? event.id, !id.isEmpty else { throw .malformed("no event id") }
        guard id.utf8.count <= maxIdBytes, !id.unicodeScalars.contains(where: DisplayText.isControl) else {
            throw .absurdId(byteCount: id.utf8.count)
        }
        guard let expiresText = json["expires_at"]?.stringValue,
              let expiresAtMs = ISO8601Timestamp.milliseconds(from: expiresText)
        else { throw .malformed("no valid expires_at in \(id)") }
        guard let data = json["data"], case .object = data,
              let widget = data["widget"]?.stringValue, let action = data["action"]?.stringValue
        else { throw .malformed("no data.widget/data.action in \(id)") }
        guard let kindText = data["kind"]?.stringValue, let kind = ActionKind(rawValue: kindText)
        else { throw .malformed("no valid data.kind in \(id)") }
        let value = data["value"]?.boolValue
        if kind == .toggle, value == nil { throw .malformed("toggle press \(id) has no boolean data.value") }
        let createdAtMs = json["created_at"]?.stringValue.flatMap(ISO8601Timestamp.milliseconds(from:))
        return PressEnvelope(
            id: id, createdAtMs: createdAtMs, expiresAtMs: expiresAtMs,
            widget: widget, action: action, kind: kind, value: value
        )
    }
}
