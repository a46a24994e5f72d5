import Foundation
import Testing
import TestSupport

/// Issue 12 (lower), politeness, against the real binary: a flapping device
/// (a real broker, the Aivi simulator on loopback) makes a bounded number of
/// PATCHes, and the tile ends on the device's last state.
@Suite("Politeness (real binary)", .serialized)
struct PolitenessEndToEndTests {
    static let stateChanges = 2_000
    static let flapDurationMs = 2_000.0

    @Test(arguments: [Int64(200)])
    func aFlappingDeviceMakesABoundedNumberOfPatches(intervalMs: Int64) throws {
        let world = try EndToEndHarness(timing: EndToEndHarness.fastTiming + "\n  min_publish_interval_ms: \(intervalMs)")
        defer { world.stopAll() }
        try world.startBridge()
        #expect(world.waitForLog("states settled"), "\(world.log)")
        let sequenceBefore = world.simulator.history(slug: EndToEndHarness.widget).last?.sequence ?? 0

        let elapsedMs = Self.flap(world.devices)
        // The last message says ON: the tile must end there (the trailing PATCH).
        let settled = waitUntil(timeoutSeconds: 15) {
            world.publishedOn("porch") == true && world.tile("porch")?.state == .on
        }
        #expect(settled, "the tile did not end on the last state: \(String(describing: world.tile("porch")))\n\(world.log)")
        // Quiet: no PATCH for three intervals (a trailing one would come within one).
        let quiet = Self.waitForQuiet(world, quietMs: 3 * intervalMs + 300, timeoutSeconds: 10)
        #expect(world.publishedOn("porch") == true, "a later PATCH undid the last state")
        let records = world.simulator.history(slug: EndToEndHarness.widget).filter { $0.sequence > sequenceBefore }
        let patches = records.count
        // About duration / interval + 1. Held to the span the PATCHes actually
        // covered (a loaded machine may still be reading the broker after the
        // flap ends), + 2 for the jitter of their arrival times.
        let spanMs = (records.last?.receivedAtMs ?? 0) - (records.first?.receivedAtMs ?? 0)
        let bound = Int(spanMs / intervalMs) + 3
        print("politeness: \(Self.stateChanges) state changes in \(Int(elapsedMs)) ms, interval \(intervalMs) ms → \(patches) PATCHes "
              + "over \(spanMs) ms (bound \(bound))")
        #expect(quiet)
        #expect(patches >= 2, "the leading edge and the trailing PATCH at least")
        #expect(patches <= bound, "\(patches) PATCHes over \(spanMs) ms for \(Self.stateChanges) changes in \(Int(elapsedMs)) ms")
        #expect(world.bridge?.isRunning == true, "\(world.log)")
    }

    /// 2,000 alternating states of the porch light over about 2 s, paced on
    /// the monotonic clock; the last one is ON. Returns how long it took (ms).
    static func flap(_ devices: TestDevices) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 1...stateChanges {
            let dueNs = start + UInt64(Double(index) * flapDurationMs / Double(stateChanges) * 1_000_000)
            while DispatchTime.now().uptimeNanoseconds < dueNs { usleep(200) }
            let isOn = index % 2 == 0
            devices.publish("zigbee2mqtt/porch", "{\"state\":\"\(isOn ? "ON" : "OFF")\"}")
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    /// Waits until the simulator has received no PATCH for `quietMs`.
    static func waitForQuiet(_ world: EndToEndHarness, quietMs: Int64, timeoutSeconds: Double) -> Bool {
        var lastSequence = -1
        var changedAtNs = DispatchTime.now().uptimeNanoseconds
        return waitUntil(timeoutSeconds: timeoutSeconds) {
            let sequence = world.simulator.history(slug: EndToEndHarness.widget).last?.sequence ?? 0
            let nowNs = DispatchTime.now().uptimeNanoseconds
            if sequence != lastSequence {
                lastSequence = sequence
                changedAtNs = nowNs
            }
            return nowNs - changedAtNs >= UInt64(quietMs) * 1_000_000
        }
    }
}
