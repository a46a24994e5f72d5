@testable import BridgeCore

/// The scenes of the seeded simulation (issue 21) and their invariants, checked
/// on every PATCH: a scene is never published active unless every target is
/// published in its scene state in that same body, and is published active
/// whenever all its targets are known, available and in their scene state, as
/// the devices last reported in this run (a new run knows nothing yet).
enum SimulatedScenes {
    /// Scenes of the living room's fan and fountain.
    static let livingRoom: [ActionConfig] = [
        scene("all_off", ["fan": false, "fountain": false]),
        scene("evening", ["fan": true, "fountain": false]),
    ]

    /// Scenes of the garage: a cover, a lock-only lock, a lock that may unlock and a pulsed door.
    static let garage: [ActionConfig] = [
        scene("leaving", ["door": false, "lock": true, "old": false]),
        scene("welcome", ["side": false, "old": true]),
    ]

    static func scene(_ id: String, _ targets: [String: Bool]) -> ActionConfig {
        ActionConfig(id: id, label: id, kind: .button,
                     sets: targets.sorted { $0.key < $1.key }.map { SceneTarget(actionId: $0.key, on: $0.value) },
                     repeatSafe: targets["old"] == nil)   // as check settles it: the pulsed door is not safe to repeat
    }

    static var all: [(slug: String, scene: ActionConfig)] {
        livingRoom.map { ("living-room", $0) } + garage.map { (SimulatedCovers.slug, $0) }
    }

    static let presses: [(String, String, String)] = all.map { ($0.slug, $0.scene.id, "button") }

    /// What each target's device last said in this run: on (open, locked), off, or nothing
    /// that holds either (nil), and whether it is reachable.
    struct Model {
        var reported: [String: Bool] = [:]
        var unreachable: Set<String> = []

        /// A message the bridge is about to read.
        mutating func note(_ topic: String, _ payload: String) {
            switch (topic, payload) {
            case ("home/fan/state", #"{"power":"ON"}"#): reported["fan"] = true
            case ("home/fan/state", #"{"power":"OFF"}"#): reported["fan"] = false
            case ("home/fan/online", let word): if word == "false" { unreachable.insert("fan") } else { unreachable.remove("fan") }
            case ("stat/fountain/POWER", let word): reported["fountain"] = word == "ON"
            case ("stat/fountain/RESULT", let word) where word.hasPrefix("{\"POWER\""): reported["fountain"] = word.contains("ON")
            case ("tele/fountain/LWT", let word): if word == "Offline" { unreachable.insert("fountain") } else { unreachable.remove("fountain") }
            // The door holds closed only when it said closed (or position 0) last; every other word, a nonsense one
            // and an unknown position too (issue 39 §3), is not closed.
            case ("garage/door/state", "closed"), ("garage/door/position", "0"): reported["door"] = false
            case ("garage/door/state", _), ("garage/door/position", _): reported["door"] = nil
            // A lock holds locked on LOCKED only, unlocked on UNLOCKED only (moving or jammed: neither).
            case ("garage/lock/state", "LOCKED"): reported["lock"] = true
            case ("garage/lock/state", _): reported["lock"] = nil
            case ("garage/side/state", "LOCKED"): reported["side"] = true
            case ("garage/side/state", "UNLOCKED"): reported["side"] = false
            case ("garage/side/state", _): reported["side"] = nil
            case ("garage/contact", #"{"contact":true}"#): reported["old"] = false
            case ("garage/contact", #"{"contact":false}"#): reported["old"] = true
            default: break
            }
        }

        /// Whether every target of `scene` is known, reachable and in its state.
        func holds(_ scene: ActionConfig) -> Bool {
            scene.sets.allSatisfy { reported[$0.actionId] == $0.on && !unreachable.contains($0.actionId) }
        }

        /// A violation in a PATCH of `slug`, or nil.
        func check(slug: String, body: String) -> String? {
            let tiles = BridgeHarness.tiles(body)
            let highlights = BridgeHarness.highlights(body)
            for (sceneSlug, scene) in SimulatedScenes.all where sceneSlug == slug {
                let active = highlights[scene.id]
                if active == true, let wrong = scene.sets.first(where: { tiles[$0.actionId] != $0.on }) {
                    return "\(scene.id) published active with '\(wrong.actionId)' shown \(tiles[wrong.actionId].map { $0 ? "on" : "off" } ?? "missing")"
                }
                if active != true, holds(scene) {
                    return "\(scene.id) published inactive while every tile is known, reachable and in its state: \(reported)"
                }
            }
            return nil
        }
    }
}
