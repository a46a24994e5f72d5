/// A `widget.action.v1` press, read from an event's JSON data.
public struct PressEnvelope: Sendable, Equatable {
    /// The only event type the bridge acts on.
    public static let eventType = eventTypeName.description
    /// The same, compared with the bytes of the data's `type`.
    static let eventTypeName: StaticString = "widget.action.v1"
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
    /// The data is read member by member (`PressEnvelopeMembers`): only the
    /// members a press uses become values, each the first of its name (what a
    /// lookup in the whole parsed object finds); the whole text is still checked.
    public static func read(_ event: StreamEvent) throws(ReadError) -> PressEnvelope {
        var json = PressEnvelopeMembers()
        do { try json.read(Array(event.data.utf8)) } catch { throw .malformed("data is not JSON (\(error))") }
        guard json.isObject else { throw .malformed("data is not a JSON object") }
        if let type = json.type.bytes {
            guard PressEnvelopeMembers.matches(type, eventTypeName) else { throw .unknownType(String(decoding: type, as: UTF8.self)) }
        } else {
            guard event.type == eventType else { throw .unknownType(event.type) }
        }
        guard let id = json.id.text ?? event.id, !id.isEmpty else { throw .malformed("no event id") }
        guard id.utf8.count <= maxIdBytes, !hasControl(id) else {
            throw .absurdId(byteCount: id.utf8.count)
        }
        guard let expiresText = json.expiresAt.bytes, let expiresAtMs = ISO8601Timestamp.milliseconds(utf8: Array(expiresText))
        else { throw .malformed("no valid expires_at in \(id)") }
        guard json.isDataObject, let widget = json.widget.text, let action = json.action.text
        else { throw .malformed("no data.widget/data.action in \(id)") }
        guard let kindText = json.kind.text, let kind = ActionKind(rawValue: kindText)
        else { throw .malformed("no valid data.kind in \(id)") }
        let value = json.value
        if kind == .toggle, value == nil { throw .malformed("toggle press \(id) has no boolean data.value") }
        let createdAtMs = json.createdAt.bytes.flatMap { ISO8601Timestamp.milliseconds(utf8: Array($0)) }
        return PressEnvelope(
            id: id, createdAtMs: createdAtMs, expiresAtMs: expiresAtMs,
            widget: widget, action: action, kind: kind, value: value
        )
    }

    /// Whether an id holds a control character (`DisplayText.isControl`); an
    /// id of printable ASCII (the service's) is told by its bytes.
    static func hasControl(_ id: String) -> Bool {
        if id.utf8.allSatisfy(DisplayText.isPrintableASCII) { return false }
        return id.unicodeScalars.contains(where: DisplayText.isControl)
    }
}
