import AiviSim
import ShellSupport

/// Records, with the bench's one clock, every PATCH arriving at the simulator and
/// every event frame it writes, and how many PATCHes of each widget it handles at once.
final class SimRecorder: Sendable {
    /// The most records kept of each kind (far above what a run makes).
    static let maxRecords = 200_000

    struct Records: SimObservationRecords {
        var patches: [PatchArrival] = []
        var frames: [WrittenFrame] = []
        var arrivalUs: [String: Int64] = [:]
        var inFlight: [String: Int] = [:]
        var maxInFlight: [String: Int] = [:]
        var refusedCount = 0
        var droppedCount = 0

        mutating func note(_ observation: SimObservation, atUs nowUs: Int64) {
            switch observation {
            case .patchReceived(let slug):
                arrivalUs[slug] = nowUs
                let count = inFlight[slug, default: 0] + 1
                inFlight[slug] = count
                maxInFlight[slug] = max(maxInFlight[slug, default: 0], count)
            case .published(let slug, let content):
                inFlight[slug, default: 1] -= 1
                guard patches.count < SimRecorder.maxRecords else { droppedCount += 1; return }
                patches.append(PatchArrival(slug: slug, arrivedUs: arrivalUs[slug] ?? nowUs, content: content))
            case .patchRefused(let slug, _):
                inFlight[slug, default: 1] -= 1
                refusedCount += 1
            case .frameWritten(let frame):
                guard frames.count < SimRecorder.maxRecords else { droppedCount += 1; return }
                frames.append(WrittenFrame(writtenUs: nowUs, frame: frame))
            }
        }
    }

    let records: ConditionLock<Records>

    init(observing simulator: AiviSimulator) {
        records = Records.recording(simulator)
    }

    var patchCount: Int { records.withLock { $0.patches.count } }
    var frameCount: Int { records.withLock { $0.frames.count } }
    var refusedCount: Int { records.withLock { $0.refusedCount } }

    /// The accepted PATCHes from index `start` on.
    func patches(from start: Int) -> [PatchArrival] {
        records.withLock { Array($0.patches[min(start, $0.patches.count)...]) }
    }

    /// The first PATCH at index `start` or later that satisfies `matches`, waiting up to `timeoutMs`.
    func waitForPatch(from start: Int, timeoutMs: Int, where matches: (PatchArrival) -> Bool) -> PatchArrival? {
        records.wait(timeoutMs: timeoutMs, until: { records in
            records.patches[min(start, records.patches.count)...].contains(where: matches)
        }) { records in
            records.patches[min(start, records.patches.count)...].first(where: matches)
        }
    }

    /// The frame at `index`, waiting up to `timeoutMs` for it to be written.
    func waitForFrame(at index: Int, timeoutMs: Int) -> WrittenFrame? {
        records.wait(timeoutMs: timeoutMs, until: { $0.frames.count > index }) { records in
            records.frames.count > index ? records.frames[index] : nil
        }
    }

    /// The first frame at index `start` or later that carries `eventId`, waiting up to `timeoutMs`
    /// (a new stream's replay writes older frames first).
    func waitForFrame(carrying eventId: String, from start: Int, timeoutMs: Int) -> WrittenFrame? {
        records.wait(timeoutMs: timeoutMs, until: { records in
            records.frames[min(start, records.frames.count)...].contains { $0.frame.contains(eventId) }
        }) { records in
            records.frames[min(start, records.frames.count)...].first { $0.frame.contains(eventId) }
        }
    }

    /// The largest number of PATCHes of one widget handled at once since the last reset.
    var maxInFlightPerWidget: Int { records.withLock { $0.maxInFlight.values.max() ?? 0 } }

    func resetMaxInFlight() {
        records.withLock { $0.maxInFlight = [:] }
    }

    /// Waits until no PATCH has arrived for `quietMs` (up to `timeoutMs`); returns whether it got quiet.
    func waitUntilQuiet(quietMs: Int, timeoutMs: Int) -> Bool {
        let deadlineMs = MonotonicClock.nowMs() + Int64(timeoutMs)
        var seen = patchCount
        while MonotonicClock.nowMs() < deadlineMs {
            let changed = records.wait(timeoutMs: quietMs) { $0.patches.count != seen }
            if !changed { return true }
            seen = patchCount
        }
        return false
    }
}
