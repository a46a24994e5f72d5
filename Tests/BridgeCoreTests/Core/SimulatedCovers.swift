@testable import BridgeCore

/// The covers, locks and pulsed doors of the seeded simulation (issue 20),
/// and their invariants: never shown closed unless reported closed, never shown
/// locked unless reported locked, never two pulses inside one travel time (in
/// one run: the bridge does not remember its pulses across a restart), never an
/// unlock without `allow_unlock`.
enum SimulatedCovers {
    static let slug = "garage"
    static let travelTimeMs: Int64 = 20_000

    /// A garage door (with position), a lock-only lock, a lock that may unlock, a pulsed door.
    static var widget: WidgetConfig {
        let coverWords = ConfigDecoder.defaultMeanings(.cover)
        let lockWords = ConfigDecoder.defaultMeanings(.lock)
        return WidgetConfig(slug: slug, actions: [
            ActionConfig(id: "door", label: "Door", kind: .toggle, device: .cover,
                         stateSources: [StateSource(topic: "garage/door/state", onValue: "open", offValue: "closed", meanings: coverWords),
                                        .position(topic: "garage/door/position", field: nil)],
                         command: ToggleCommand(topic: "garage/door/set", payloadOn: "OPEN", payloadOff: "CLOSE"),
                         travelTimeMs: travelTimeMs, confirmTimeoutMs: 3_000),
            ActionConfig(id: "lock", label: "Lock", kind: .toggle, device: .lock,
                         stateSources: [StateSource(topic: "garage/lock/state", onValue: "LOCKED", offValue: "UNLOCKED", meanings: lockWords)],
                         command: ToggleCommand(topic: "garage/lock/set", payloadOn: "LOCK", payloadOff: "UNLOCK")),
            ActionConfig(id: "side", label: "Side door", kind: .toggle, device: .lock,
                         stateSources: [StateSource(topic: "garage/side/state", onValue: "LOCKED", offValue: "UNLOCKED", meanings: lockWords)],
                         command: ToggleCommand(topic: "garage/side/set", payloadOn: "LOCK", payloadOff: "UNLOCK"), allowUnlock: true),
            ActionConfig(id: "old", label: "Old door", kind: .toggle, device: .cover,
                         stateSources: [StateSource(topic: "garage/contact", field: ["contact"], onValue: "false", offValue: "true")],
                         pulse: MQTTMessageSpec(topic: "garage/relay/POWER", payload: "ON", qos: 0), travelTimeMs: travelTimeMs,
                         repeatSafe: false),
        ])
    }

    static let messages: [(String, [String])] = [
        ("garage/door/state", ["open", "closed", "opening", "closing", "stopped", "sideways"]),
        ("garage/door/position", ["0", "47", "100", "-1", "x"]),
        ("garage/lock/state", ["LOCKED", "UNLOCKED", "JAMMED", "LOCKING", "UNLOCKING"]),
        ("garage/side/state", ["LOCKED", "UNLOCKED", "JAMMED"]),
        ("garage/contact", [#"{"contact":true}"#, #"{"contact":false}"#, #"{"battery":90}"#]),
    ]

    static let presses: [(String, String, String)] = [
        (slug, "door", "toggle"), (slug, "lock", "toggle"), (slug, "side", "toggle"), (slug, "old", "toggle"),
    ]

    /// What the devices last reported, as the invariants need it.
    struct Reports {
        /// The door's last word and position: closed only when one of them said so last.
        var doorClosed = false
        var lockLocked = false
        var sideLocked = false
        var oldClosed = false
        var lastPulseAtMs: Int64?

        mutating func note(_ topic: String, _ payload: String) {
            switch (topic, payload) {
            case ("garage/door/state", "closed"), ("garage/door/position", "0"): doorClosed = true
            case ("garage/door/state", "sideways"), ("garage/door/position", "-1"), ("garage/door/position", "x"): break
            case ("garage/door/state", _), ("garage/door/position", _): doorClosed = false
            case ("garage/lock/state", let word): lockLocked = word == "LOCKED"
            case ("garage/side/state", let word): sideLocked = word == "LOCKED"
            case ("garage/contact", #"{"contact":true}"#): oldClosed = true
            case ("garage/contact", #"{"contact":false}"#): oldClosed = false
            default: break
            }
        }

        /// A violation in a PATCH body, or nil.
        func check(body: String) -> String? {
            guard let actions = (try? JSONValue.parse(bytes: Array(body.utf8)))?.value(atPath: ["content", "actions"]),
                  case .array(let tiles) = actions else { return nil }
            for tile in tiles {
                guard case .string(let id)? = tile.value(atPath: ["id"]), case .bool(let on)? = tile.value(atPath: ["on"]) else { continue }
                switch id {
                case "door" where !on && !doorClosed: return "the garage door shown closed, but it did not report closed"
                case "old" where !on && !oldClosed: return "the pulsed door shown closed, but its sensor did not say closed"
                case "lock" where on && !lockLocked: return "the lock shown locked, but it did not report locked"
                case "side" where on && !sideLocked: return "the side door shown locked, but it did not report locked"
                default: break
                }
            }
            return nil
        }

        /// A violation in an MQTT publish at `monotonicMs`, or nil.
        mutating func check(publish message: OutgoingMQTTMessage, monotonicMs: Int64) -> String? {
            let payload = String(decoding: message.payload, as: UTF8.self)
            if message.topic == "garage/lock/set", payload == "UNLOCK" { return "an unlock sent for a lock without allow_unlock" }
            guard message.topic == "garage/relay/POWER" else { return nil }
            if message.retain { return "a retained pulse" }
            if let last = lastPulseAtMs, monotonicMs - last < SimulatedCovers.travelTimeMs {
                return "two pulses \(monotonicMs - last) ms apart, inside one travel time"
            }
            lastPulseAtMs = monotonicMs
            return nil
        }
    }
}
