import BridgeCore

/// The control API's JSON renderings of the simulator's records.
enum SimJSON {
    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { JSONMember($0.0, $0.1) })
    }

    static func error(_ message: String) -> JSONValue {
        object([("error", .string(message))])
    }

    static func outcome(_ outcome: PressOutcome) -> JSONValue {
        var members: [(String, JSONValue)] = [("accepted", .bool(outcome.isAccepted))]
        if let eventId = outcome.eventId { members.append(("event_id", .string(eventId))) }
        if let refusal = outcome.refusal { members.append(("reason", .string(refusal.rawValue))) }
        return object(members)
    }

    static func tile(_ display: TileDisplay) -> JSONValue {
        object([
            ("id", .string(display.id)),
            ("label", .string(display.label)),
            ("kind", .string(display.kind.rawValue)),
            ("state", .string(display.state.rawValue)),
            (display.kind == .toggle ? "on" : "active", .bool(display.publishedOnOrActive)),
        ])
    }

    static func publish(_ record: PublishRecord) -> JSONValue {
        object([
            ("sequence", .int(Int64(record.sequence))),
            ("received_at", .string(SimTimeFormat.iso8601(ms: record.receivedAtMs))),
            ("received_at_ms", .int(record.receivedAtMs)),
            ("content", record.content),
        ])
    }

    static func event(_ event: PressEvent) -> JSONValue {
        object([
            ("phone", .string(event.phone)),
            ("deliver_at", .string(SimTimeFormat.iso8601(ms: event.deliverAtMs))),
            ("envelope", event.envelope),
        ])
    }
}

extension JSONValue {
    /// A whole number, from an integer or an integral double.
    var integerValue: Int64? {
        switch self {
        case .int(let number): return number
        case .double(let number) where abs(number) < 1e15 && Double(Int64(number)) == number:
            return Int64(number)
        default: return nil
        }
    }
}
