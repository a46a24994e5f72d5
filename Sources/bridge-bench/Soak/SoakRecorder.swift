import AiviSim
import BridgeCore
import ShellSupport

/// What the simulator saw, with the bench's clock: each widget's last accepted
/// content, the PATCH counts, and when each press event was first written on a stream.
final class SoakRecorder: Sendable {
    /// The most event ids remembered (far above a 60-minute run).
    static let maxEvents = 200_000

    struct Records: SimObservationRecords {
        var lastContent: [String: JSONValue] = [:]
        var lastAcceptedUs: [String: Int64] = [:]
        var patchesReceived = 0
        var patchesAccepted = 0
        var patchesRefused = 0
        var firstWrittenUs: [String: Int64] = [:]
        var framesWritten = 0

        mutating func note(_ observation: SimObservation, atUs nowUs: Int64) {
            switch observation {
            case .patchReceived:
                patchesReceived += 1
            case .published(let slug, let content):
                patchesAccepted += 1
                lastContent[slug] = content
                lastAcceptedUs[slug] = nowUs
            case .patchRefused:
                patchesRefused += 1
            case .frameWritten(let frame):
                framesWritten += 1
                guard let id = SoakRecorder.eventId(of: frame), firstWrittenUs[id] == nil,
                      firstWrittenUs.count < SoakRecorder.maxEvents else { return }
                firstWrittenUs[id] = nowUs
            }
        }
    }

    let records: ConditionLock<Records>

    init(observing simulator: AiviSimulator) {
        records = Records.recording(simulator)
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
