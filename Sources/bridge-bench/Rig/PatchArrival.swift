import AiviSim
import BridgeCore

/// One PATCH the simulator accepted, with the bench's clock reading of its arrival.
struct PatchArrival: Sendable {
    var slug: String
    /// When the request reached the simulator's handler (`MonotonicClock.nowUs()`).
    var arrivedUs: Int64
    var content: JSONValue

    /// Toggle id to on/off, as this content shows it.
    var toggleStates: [String: Bool] {
        var states: [String: Bool] = [:]
        for tile in SwitchboardTile.tiles(in: content) where tile.kind == .toggle { states[tile.id] = tile.isOn }
        return states
    }

    /// Whether the tile `actionId` shows `isOn`.
    func shows(_ actionId: String, on isOn: Bool) -> Bool {
        SwitchboardTile.tiles(in: content).first { $0.id == actionId }?.isOn == isOn
    }
}

/// One frame the simulator wrote on an event stream, with the bench's clock reading.
struct WrittenFrame: Sendable {
    var writtenUs: Int64
    var frame: String

    /// The press's `data` member, parsed from the frame's `data:` line.
    var pressData: JSONValue? {
        guard let line = frame.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }),
              let envelope = try? JSONValue.parse(String(line.dropFirst("data: ".count))) else { return nil }
        return envelope["data"]
    }
}
