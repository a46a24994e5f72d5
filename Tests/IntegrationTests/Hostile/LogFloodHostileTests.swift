import Foundation
import MQTTShell
import Testing
import TestSupport

/// Issue 12, item 7, against the real binary: a broker and a service that make
/// every message unique (an id, a payload, a 60 KB action name per event) used
/// to defeat the log's rate limit, which keyed on the text (11 MB of warnings in
/// 1.5 s; single lines of 60 KB). Limited by kind and bounded per line, the log
/// of the whole flood stays small.
@Suite("Hostile log flood (real binary)", .serialized)
struct LogFloodHostileTests {
    /// What the whole flood may write, start-up lines included (today: about 6 KB;
    /// before the fix: about 3 MB).
    static let maxLogBytes = 32 * 1_024
    /// A line's message is cut at 4,096 characters; the plain format adds a
    /// timestamp and a level before it.
    static let maxLineScalars = 4_096 + 40

    static func frame(id: String, data: String) -> String {
        "id: \(id)\nevent: widget.action.v1\ndata: \(data)\n\n"
    }

    static func press(id: String, widget: String = "lights", action: String, kind: String, expiresAt: String,
                      value: Bool? = nil) -> String {
        let valueField = value.map { ",\"value\":\($0)" } ?? ""
        let data = "{\"id\":\"\(id)\",\"type\":\"widget.action.v1\",\"expires_at\":\"\(expiresAt)\","
            + "\"data\":{\"widget\":\"\(widget)\",\"action\":\"\(action)\",\"kind\":\"\(kind)\"\(valueField)}}"
        return frame(id: id, data: data)
    }

    /// About 1,000 events, each unique: malformed, for unknown actions with names
    /// of 8 KB (and ten of 60 KB), expired, of the wrong kind, of unknown types;
    /// then one valid press that marks the end.
    static func hostileEvents(run: String) -> String {
        let expired = "2020-01-01T00:00:00.000Z"
        // Within the 60 s a press may claim (issue 38 item 4).
        let future = ISO8601DateFormatter().string(from: Date().addingTimeInterval(50))
        var body = ""
        for index in 0..<300 {
            body += frame(id: "evt_bad_\(run)_\(index)_" + String(repeating: "i", count: 80),
                          data: "not json \(index) \(UUID().uuidString)")
        }
        for index in 0..<200 {
            let name = "ghost_\(index)_" + String(repeating: "g", count: index < 10 ? 60_000 : 8_000)
            body += press(id: "evt_ghost_\(run)_\(index)", action: name, kind: "toggle", expiresAt: future, value: true)
        }
        for index in 0..<300 {
            body += press(id: "evt_late_\(run)_\(index)", action: "porch", kind: "toggle", expiresAt: expired, value: true)
        }
        for index in 0..<100 {
            body += press(id: "evt_kind_\(run)_\(index)", action: "porch", kind: "button", expiresAt: future)
        }
        for index in 0..<100 {
            body += frame(id: "evt_type_\(run)_\(index)",
                          data: "{\"id\":\"evt_type_\(index)\",\"type\":\"widget.other.\(index).\(UUID().uuidString)\"}")
        }
        body += press(id: "evt_final_\(run)", action: "porch", kind: "toggle", expiresAt: future, value: false)
        return body
    }

    /// At info level the whole log stays small; at debug level (not rate-limited: asked for
    /// while diagnosing) every line is still bounded and every name from an event cut.
    @Test("1,000 unique malformed events and 1,000 unique unreadable payloads: at info level a log under 32 KiB; no line over the bound",
          arguments: ["info", "debug"])
    func aFloodOfUniqueBadInputKeepsTheLogSmall(logLevel: String) throws {
        let world = try HostileWorld(script: ["events_body": "", "events_hold_s": 0], extraActions: """
              - id: plug
                label: Plug
                kind: toggle
                tasmota: plug
        """)
        try world.startBridge(logLevel: logLevel)
        #expect(world.waitForLog("mqtt connected", timeoutSeconds: 20), "\(world.log)")
        let flooder = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: world.broker.port, clientId: "log-flooder")) { _ in }
        try flooder.start()
        defer { flooder.stop() }
        #expect(waitUntil(timeoutSeconds: 10) { flooder.isConnected })

        // MQTT: each unreadable payload unique and after a readable one, so each is worth a warning by itself.
        for index in 0..<1_000 {
            try flooder.publish(topic: "zigbee2mqtt/porch", payload: Array("{\"state\":\"ON\"}".utf8), qos: .atLeastOnce, retain: false)
            let garbage = "garbage \(index) \(UUID().uuidString) " + String(repeating: "z", count: 500)
            try flooder.publish(topic: "zigbee2mqtt/porch", payload: Array(garbage.utf8), qos: .atLeastOnce, retain: false)
        }
        // Another action's warning still shows after the flood: it marks the end of the MQTT part.
        // mosquitto queues at most 1,000 messages for a client that reads slower than the
        // flood comes (max_queued_messages) and drops the rest, the marker with them on a
        // loaded machine: it is sent again, once a second, until the bridge says it (60 at most).
        var isMarkerSaid = false
        for _ in 0..<60 where !isMarkerSaid {
            try flooder.publish(topic: "stat/plug/POWER", payload: Array("BOGUS-marker".utf8), qos: .atLeastOnce, retain: false)
            isMarkerSaid = world.waitForLog("BOGUS-marker", timeoutSeconds: 1)
        }
        #expect(isMarkerSaid, "\(world.log.suffix(3_000))")

        // The event stream: about 1,000 unique bad events, then the marker press.
        try world.server.setScript(["events_body": Self.hostileEvents(run: "r1"), "events_hold_s": 120])
        #expect(world.waitForLog("evt_final_r1", timeoutSeconds: 90), "\(world.log.suffix(3_000))")
        #expect(world.isBridgeRunning)

        let log = world.log
        let lines = log.split(separator: "\n")
        let longest = lines.map { $0.unicodeScalars.count }.max() ?? 0
        print("log flood at \(logLevel) level: \(log.utf8.count) bytes, \(lines.count) lines, longest \(longest) characters")
        if logLevel == "info" {
            #expect(log.utf8.count < Self.maxLogBytes, "\(log.utf8.count) bytes of log: \(log.prefix(3_000))")
        }
        #expect(longest <= Self.maxLineScalars, "a line of \(longest) characters")
        // Each kind still said what it was, at least once.
        for kind in ["skipping malformed event", ": unknown action", "expired", "is a button press but the action is a toggle",
                     "action 'porch' (widget lights): ignoring payload"] {
            #expect(log.contains(kind), "\(kind) never logged")
        }
        #expect(!log.contains(String(repeating: "g", count: 100)), "an action name from an event was not cut")
    }

    /// Session 3 review (F-logkinds): per-action warnings put the action in the kind, and the
    /// limiter remembered 256 kinds, handing a fresh window to each kind it had evicted:
    /// with 300 actions, 3,000 unreadable payloads wrote 3,000 warnings. Now new kinds share
    /// one limited window when the table is full, and warnings have a budget per minute.
    @Test("300 actions round-robin: 3,000 unreadable payloads write at most the warning budget")
    func moreActionsThanRememberedKindsCannotDefeatTheLimit() throws {
        let widgetCount = 10
        let actionsPerWidget = 30
        var widgets = ""
        for widget in 0..<widgetCount {
            widgets += "  - slug: w\(widget)\n    actions:\n"
            for action in 0..<actionsPerWidget {
                widgets += "      - { id: a\(action), label: A\(action), kind: toggle, state_topic: big/\(widget)/\(action), "
                    + "command_topic: big/\(widget)/\(action)/set }\n"
            }
        }
        widgets += "  - slug: marker\n    actions:\n"
            + "      - { id: flag, label: Flag, kind: toggle, state_topic: mark/flag, command_topic: mark/flag/set }\n"
        let world = try HostileWorld(script: ["events_body": "", "events_hold_s": 120], extraActions: widgets)
        try world.startBridge(logLevel: "info")
        #expect(world.waitForLog("mqtt connected", timeoutSeconds: 20), "\(world.log)")
        let flooder = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: world.broker.port, clientId: "kind-flooder")) { _ in }
        try flooder.start()
        defer { flooder.stop() }
        #expect(waitUntil(timeoutSeconds: 10) { flooder.isConnected })
        let markerPatches = { world.server.log.filter { $0.hasPrefix("PATCH") && $0.hasSuffix("/widget/marker") }.count }
        // The marker's first publish (all widgets once states settle) is not the flood's end.
        #expect(waitUntil(timeoutSeconds: 20) { markerPatches() >= 1 }, "\(world.log.suffix(3_000))")
        let markerPatchesBefore = markerPatches()

        for round in 0..<10 {
            for widget in 0..<widgetCount {
                for action in 0..<actionsPerWidget {
                    let topic = "big/\(widget)/\(action)"
                    try flooder.publish(topic: topic, payload: Array("ON".utf8), qos: .atLeastOnce, retain: false)
                    try flooder.publish(topic: topic, payload: Array("garbage-\(round)-\(action)".utf8), qos: .atLeastOnce, retain: false)
                }
            }
        }
        // The same client's last message: once the marker's tile is published, the flood has been read.
        // mosquitto drops what a slow reader has not taken beyond 1,000 queued messages, the
        // marker with it on a loaded machine: sent again once a second until published (90 at most).
        var isMarkerPublished = false
        for _ in 0..<90 where !isMarkerPublished && world.isBridgeRunning {
            try flooder.publish(topic: "mark/flag", payload: Array("ON".utf8), qos: .atLeastOnce, retain: false)
            isMarkerPublished = waitUntil(timeoutSeconds: 1) { markerPatches() > markerPatchesBefore }
        }
        #expect(isMarkerPublished, "\(world.log.suffix(3_000))")
        #expect(world.isBridgeRunning)

        let log = world.log
        let warnings = log.split(separator: "\n").filter { $0.contains(" warning ") }
        print("300 actions, 3,000 unreadable payloads: \(warnings.count) warning lines, \(log.utf8.count) bytes of log")
        #expect(warnings.count <= 100 + 5, "\(warnings.count) warning lines for 3,000 bad payloads")
        #expect(log.contains("ignoring payload"), "the first warnings still say what happened")
    }
}
