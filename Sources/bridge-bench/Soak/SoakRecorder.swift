import AiviSim
import BridgeCore
import ShellSupport

/// What the simulator saw, with the bench's clock: each widget's last accepted
/// content, the PATCH counts, and when each press event was first written on a stream.
final class SoakRecorder: Sendable {
    /// The most event ids remembered (far above a 60-minute run).
    static let maxEvents = 200_000

    struct Records {
        var lastContent: [String: JSONValue] = [:]
        var lastAcceptedUs: [String: Int64] = [:]
        var patchesReceived = 0
        var patchesAccepted = 0
        var patchesRefused = 0
        var firstWrittenUs: [String: Int64] = [:]
        var framesWritten = 0
    }

    let records = ConditionLock(Records())

    init(observing simulator: AiviSimulator) {
        simulator.observe { [records] observation in
            let nowUs = MonotonicClock.nowUs()
            records.withLock { Self.note(observation, atUs: nowUs, in: &$0) }
        }
    }

    private static func note(_ observation: SimObservation, atUs nowUs: Int64, in records: inout Records) {
        switch observation {
        case .patchReceived:
            records.patchesReceived += 1
        case .published(let slug, let content):
            records.patchesAccepted += 1
            records.lastContent[slug] = content
            records.lastAcceptedUs[slug] = nowUs
        case .patchRefused:
            records.patchesRefused += 1
        case .frameWritten(let frame):
            records.framesWritten += 1
            guard let id = eventId(of: frame), records.firstWrittenUs[id] == nil,
                  records.firstWrittenUs.count < maxEvents else { return }
            records.firstWrittenUs[id] = nowUs
        }
    }

    /// The `id:` of an SSE frame.
    static func eventId(of frame: String) -> String? {
        guard let line = frame.split(separator: "\n").first(where: { $0.hasPrefix("id: ") }) else { return nil }
        return String(line.dropFirst("id: ".count))
    }

    func firstWrittenUs(_ eventId: String) -> Int64? { records.withLock { $0.firstWrittenUs[eventId] } }

    func lastContent(_ slug: String) -> JSONValue? { records.withLock { $0.lastContent[slug] } }

    var snapshot: Records { records.withLock { $0 } }
}
