import Testing
@testable import BridgeCore

/// `PressEnvelope.read` reads the event's data member by member, without a
/// `JSONValue` tree: it must read every text as a whole parse and lookups did
/// (the reading before the member-by-member reader, kept here as the reference).
@Suite struct PressEnvelopeReadTests {
    /// The reading through a whole parse (what `read` did before).
    static func referenceRead(_ event: StreamEvent) throws(PressEnvelope.ReadError) -> PressEnvelope {
        let json: JSONValue
        do { json = try JSONValue.parse(event.data) } catch { throw .malformed("data is not JSON (\(error))") }
        guard case .object = json else { throw .malformed("data is not a JSON object") }
        let type = json["type"]?.stringValue ?? event.type
        guard type == PressEnvelope.eventType else { throw .unknownType(type) }
        guard let id = json["id"]?.stringValue ?? event.id, !id.isEmpty else { throw .malformed("no event id") }
        guard id.utf8.count <= PressEnvelope.maxIdBytes, !id.unicodeScalars.contains(where: DisplayText.isControl) else {
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
        return PressEnvelope(id: id, createdAtMs: createdAtMs, expiresAtMs: expiresAtMs,
                             widget: widget, action: action, kind: kind, value: value)
    }

    static let good = #"{"id":"evt_1","type":"widget.action.v1","created_at":"2030-01-01T00:00:00.120Z","expires_at":"2030-01-01T00:00:05Z","data":{"widget":"living-room","action":"fan","kind":"toggle","value":true}}"#

    static let texts: [String] = [
        good,
        "  \(good)\n",
        #"{"id":"evt_2","type":"widget.action.v1","expires_at":"2030-01-01T00:00:05+01:00","data":{"widget":"w","action":"b","kind":"button"}}"#,
        // Repeats: the first of a name counts, whatever its kind.
        #"{"id":"a","id":"b","type":"widget.action.v1","type":"x","expires_at":"2030-01-01T00:00:05Z","data":{"widget":"w","widget":"v","action":"b","kind":"button"},"data":{}}"#,
        #"{"id":1,"id":"b","type":"widget.action.v1","expires_at":"2030-01-01T00:00:05Z","data":{"widget":"w","action":"b","kind":"button"}}"#,
        #"{"type":null,"type":"widget.action.v1","id":"c","expires_at":"2030-01-01T00:00:05Z","data":{"widget":"w","action":"b","kind":"button"}}"#,
        #"{"type":"other.v1","id":"c"}"#,
        #"{"type":"widget.action.v2","id":"c"}"#,
        #"{"id":"c","type":"widget.action.v1","expires_at":"2030-01-01T00:00:05Z","data":[1],"data":{"widget":"w","action":"b","kind":"button"}}"#,
        #"{"id":"c","type":"widget.action.v1","expires_at":"2030-01-01T00:00:05Z","data":{"widget":"w","action":"t","kind":"toggle","value":1,"value":true}}"#,
        #"{"id":"c","type":"widget.action.v1","expires_at":"2030-01-01T00:00:05Z","data":{"widget":"w","action":"t","kind":"toggle","value":false,"value":1}}"#,
        #"{"id":"c","type":"widget.action.v1","expires_at":"2030-01-01T00:00:05Z","data":{"widget":"w","action":"t","kind":"toggle"}}"#,
        #"{"id":"c","type":"widget.action.v1","expires_at":"2030-01-01T00:00:05Z","data":{"widget":"w","action":"t","kind":"slider","value":true}}"#,
        #"{"id":"c","type":"widget.action.v1","expires_at":7,"data":{"widget":"w","action":"b","kind":"button"}}"#,
        #"{"id":"c","type":"widget.action.v1","expires_at":"soon","data":{"widget":"w","action":"b","kind":"button"}}"#,
        #"{"id":"c","type":"widget.action.v1","expires_at":"2030-01-01T00:00:05Z","created_at":"garbage","data":{"widget":"w","action":"b","kind":"button"}}"#,
        // Escapes in keys and values are decoded before they are compared.
        #"{"\u0069d":"e\u0301","t\u0079pe":"widget.action.v1","expires_at":"2030-01-01T00:00:05Z","d\u0061ta":{"w\u0069dget":"w\"q","action":"b\\n","kind":"butto\u006e"}}"#,
        #"{"id":"c","type":"widget\u002eaction.v1","expires_at":"2030-01-01T00:00:05Z","data":{"widget":"w","action":"b","kind":"button"}}"#,
        // Members the press does not use, of every kind, nested.
        #"{"extra":{"a":[1,2,{"b":null}],"c":"d"},"id":"c","type":"widget.action.v1","n":-1.5e3,"expires_at":"2030-01-01T00:00:05Z","data":{"x":[true,false],"widget":"w","action":"b","kind":"button","y":{"z":{}}}}"#,
        #"{"id":"","type":"widget.action.v1"}"#,
        #"{"id":"bad\u0007id","type":"widget.action.v1"}"#,
        "{\"id\":\"\(String(repeating: "x", count: 129))\",\"type\":\"widget.action.v1\"}",
        "{\"id\":\"ok\",\"type\":\"widget.action.v1\",\"id\":\"\(String(repeating: "x", count: 200))\",\"expires_at\":\"2030-01-01T00:00:05Z\",\"data\":{\"widget\":\"w\",\"action\":\"b\",\"kind\":\"button\"}}",
        #"{"type":"widget.action.v1"}"#,
        #"{}"#,
        #"[]"#, #"[1,2]"#, #""text""#, "null", "12",
        // Not JSON: the same error, at the same byte.
        "", "{", "{\"id\":", "{\"id\":\"c\",}", "{\"id\" \"c\"}", "{\"id\":\"c\"} x", "{\"id\":\"c\"}}", "not json",
        #"{"id":"c","data":{"widget":"w",}}"#, #"{"id":"c","data":{"widget":"w"},"x":[1,]}"#, #"{"id":"a\qb"}"#,
        #"{"data":{"value":tru}}"#, #"{"k\ud800":1}"#, "{\"id\":\"a\u{01}\"}",
        "{\"x\":" + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}",
        "{\"data\":{\"x\":" + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}}",
        "{\"data\":{\"value\":" + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}}",
    ]

    static func outcome(_ read: (StreamEvent) throws(PressEnvelope.ReadError) -> PressEnvelope, _ event: StreamEvent)
        -> Result<PressEnvelope, PressEnvelope.ReadError> {
        Result { () throws(PressEnvelope.ReadError) in try read(event) }
    }

    @Test(arguments: texts)
    func readsAsAWholeParseDid(text: String) {
        for (id, type) in [(nil, "message"), ("evt_sse", PressEnvelope.eventType), ("", "other")] as [(String?, String)] {
            let event = StreamEvent(id: id, type: type, data: text)
            #expect(Self.outcome(PressEnvelope.read, event) == Self.outcome(Self.referenceRead, event), "\(text)")
        }
    }

    @Test func readsTheUsualPress() throws {
        let press = try PressEnvelope.read(StreamEvent(id: nil, type: "message", data: Self.good))
        #expect(press == PressEnvelope(id: "evt_1", createdAtMs: 1_893_456_000_120, expiresAtMs: 1_893_456_005_000,
                                       widget: "living-room", action: "fan", kind: .toggle, value: true))
    }
}
