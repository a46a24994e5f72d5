import BridgeCore

/// The control API's fault endpoints (`POST /_sim/faults/<name>`): each reads its
/// JSON body, applies the fault, and answers nil or what is wrong with the body.
enum FaultRequest {
    typealias Apply = @Sendable (JSONValue, AiviSimulator) -> String?

    /// The longest delay a fault may ask for (an hour).
    static let maxDelayMs: Int64 = 3_600_000

    /// The body's `ms`, when it is a whole number from 0 to `maxDelayMs`.
    private static func delayMs(_ body: JSONValue) -> Int64? {
        guard let milliseconds = body["ms"]?.integerValue, (0...maxDelayMs).contains(milliseconds) else { return nil }
        return milliseconds
    }

    static let handlers: [String: Apply] = [
        "fail-patches": { body, simulator in failPatches(body, simulator) },
        "reset-patches": { body, simulator in
            guard let count = body["count"]?.integerValue, count >= 0 else { return "count is required" }
            simulator.resetNextPatches(count: Int(count))
            return nil
        },
        "delay-answers": { body, simulator in
            guard let milliseconds = delayMs(body) else { return "ms is required, 0...\(maxDelayMs)" }
            simulator.delayAnswers(milliseconds: Int(milliseconds))
            return nil
        },
        "delay-events": { body, simulator in
            guard let milliseconds = delayMs(body) else { return "ms is required, 0...\(maxDelayMs)" }
            simulator.delayEvents(milliseconds: milliseconds)
            return nil
        },
        "duplicate-events": { body, simulator in
            guard let count = body["count"]?.integerValue, count >= 0 else { return "count is required" }
            simulator.duplicateNextEvents(count: Int(count))
            return nil
        },
        "drop-streams": { body, simulator in
            guard let mode = body["mode"]?.stringValue.flatMap(StreamDropMode.init(rawValue:)) else {
                return "mode must be \"close\" or \"half_open\""
            }
            simulator.dropEventStreams(mode)
            return nil
        },
        "inject-event": { body, simulator in
            guard let kind = body["kind"]?.stringValue.flatMap(InjectedEventKind.init(rawValue:)) else {
                return "kind must be \"malformed\" or \"unknown_type\""
            }
            simulator.injectEvent(kind)
            return nil
        },
        "clear": { _, simulator in
            simulator.clearFaults()
            return nil
        },
    ]

    private static func failPatches(_ body: JSONValue, _ simulator: AiviSimulator) -> String? {
        guard let count = body["count"]?.integerValue, count >= 0,
              let status = body["status"]?.integerValue, (400...599).contains(status) else {
            return "count and status (400...599) are required"
        }
        let retryAfter = body["retry_after_s"]?.integerValue.map { Int($0) }
        simulator.failNextPatches(count: Int(count), status: Int(status), retryAfterSeconds: retryAfter)
        return nil
    }
}
