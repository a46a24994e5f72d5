import BridgeCore
import HTTPServer

/// One accepted press, as the service delivers it (`widget.action.v1`).
public struct PressEvent: Sendable, Equatable {
    public static let type = "widget.action.v1"

    /// Order of creation (1, 2, ...).
    public var sequence: Int
    /// Unique across the account, the same on every delivery.
    public var id: String
    public var widget: String
    public var action: String
    public var kind: TileKind
    /// Toggles only: the state asked for.
    public var value: Bool?
    /// The phone that pressed (not part of the envelope).
    public var phone: String
    public var createdAtMs: Int64
    public var expiresAtMs: Int64
    /// Not sent before this (the event-delay fault moves it).
    public var deliverAtMs: Int64

    /// The JSON envelope, members in the contract's order.
    public var envelope: JSONValue {
        var data: [JSONMember] = [
            JSONMember("widget", .string(widget)),
            JSONMember("action", .string(action)),
            JSONMember("kind", .string(kind.rawValue)),
        ]
        if let value { data.append(JSONMember("value", .bool(value))) }
        return .object([
            JSONMember("id", .string(id)),
            JSONMember("type", .string(Self.type)),
            JSONMember("created_at", .string(SimTimeFormat.iso8601(ms: createdAtMs))),
            JSONMember("expires_at", .string(SimTimeFormat.iso8601(ms: expiresAtMs))),
            JSONMember("data", .object(data)),
        ])
    }

    /// The Server-Sent Events frame: `id:`, `event:`, `data:` and a blank line.
    public var sseFrame: String {
        ServerSentEvents.frame(id: id, event: Self.type, data: envelope.serialized())
    }

    /// Whether the service still delivers it at `nowMs`.
    func isUnexpired(atMs nowMs: Int64) -> Bool { nowMs < expiresAtMs }
}
