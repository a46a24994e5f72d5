@_spi(DurableRecordStore) @testable import BridgeCore
@testable import BridgeDaemon
import Foundation
import ShellSupport
import TestSupport

/// The state directory's disk under the simulated runtime (the daemon's
/// `UnsafeEventRecorder`): healthy (a record durable at once), slow (it
/// finishes later, on the simulated clock, durable or failed), full (ENOSPC at
/// once), or syncing on the loop (the recorder before issue 38 item 8: the
/// loop waits for the sync). What is durable survives a crash; a record in
/// flight at a crash reached the disk whole or was torn (its line lost, which
/// the loader skips).
final class SimulatedDisk: UnsafeEventRecorder, @unchecked Sendable {
    enum Mode: CaseIterable { case healthy, slow, full, slowThenFails }

    var mode: Mode = .healthy
    /// The pre-fix recorder: a record's sync runs on the loop (the clock moves inside `record`).
    var syncsOnTheLoop = false
    var syncDelayMs: Int64 = 400
    /// Durable ids, with the expiry they were recorded with.
    var durable: [UTF8Key: Int64] = [:]
    /// When each durable id was recorded (simulated monotonic ms): junk must be forgotten within minutes.
    var recordedAtMs: [UTF8Key: Int64] = [:]
    /// How long each id's record took (simulated ms), for the delay bound of its press.
    var recordTookMs: [UTF8Key: Int64] = [:]
    private var started: [UTF8Key: Int64] = [:]
    /// Records in flight (slow), finished by the world's agenda.
    var inFlight: [UInt64: (event: RememberedEvent, succeeds: Bool, finish: @Sendable (RecordOutcome) -> Void)] = [:]
    private var nextFlight: UInt64 = 0
    var failedCount = 0
    var slowCount = 0
    var recordCount = 0

    let clock: SimulatedBoardClock
    /// Where a slow record's end is scheduled: (after ms, flight).
    var schedule: (Int64, UInt64) -> Void = { _, _ in }
    var random: () -> Int64 = { 0 }

    init(clock: SimulatedBoardClock) {
        self.clock = clock
    }

    static func failure() -> FileError { FileError(path: "/sim/state/unsafe-event-ids.jsonl", operation: "write", errorNumber: ENOSPC) }

    func record(_ event: RememberedEvent, finish: @escaping @Sendable (RecordOutcome) -> Void) -> RecordOutcome? {
        recordCount += 1
        let key = UTF8Key(event.id)
        started[key] = clock.monotonicMs
        if syncsOnTheLoop {
            clock.advance(byMs: syncDelayMs)
            return mode == .full ? fail() : makeDurable(event)
        }
        switch mode {
        case .healthy:
            return makeDurable(event)
        case .full:
            return fail()
        case .slow, .slowThenFails:
            slowCount += 1
            let flight = nextFlight
            nextFlight += 1
            inFlight[flight] = (event, mode == .slow, finish)
            schedule(random(), flight)
            return nil
        }
    }

    private func makeDurable(_ event: RememberedEvent) -> RecordOutcome {
        let key = UTF8Key(event.id)
        durable[key] = event.expiresAtMs
        recordedAtMs[key] = clock.monotonicMs
        recordTookMs[key] = clock.monotonicMs - (started[key] ?? clock.monotonicMs)
        return .success(DurableRecord(syncedRecordOf: event))
    }

    private func fail() -> RecordOutcome {
        failedCount += 1
        return .failure(Self.failure())
    }

    func forget(_ ids: [String]) throws(FileError) {
        for id in ids {
            durable[UTF8Key(id)] = nil
            recordedAtMs[UTF8Key(id)] = nil
        }
    }

    /// A slow record ends: durable first (if it succeeds), then the loop is told.
    func finish(_ flight: UInt64) {
        guard let (event, succeeds, finish) = inFlight.removeValue(forKey: flight) else { return }
        finish(succeeds ? makeDurable(event) : fail())
    }

    /// The process dies: each record in flight reached the disk whole or was torn; none is told.
    func crash(using random: inout SplitMix64) {
        for (_, entry) in inFlight.sorted(by: { $0.key < $1.key }) where entry.succeeds && Bool.random(using: &random) {
            _ = makeDurable(entry.event)
        }
        inFlight = [:]
    }

    /// What a new process loads.
    var remembered: [RememberedEvent] {
        durable.sorted { $0.key < $1.key }.map { RememberedEvent(id: $0.key.text, expiresAtMs: $0.value) }
    }
}
