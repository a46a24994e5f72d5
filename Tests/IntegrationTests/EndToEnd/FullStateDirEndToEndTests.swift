import AiviSim
import BridgeCore
import Foundation
import Testing
import TestSupport

/// Whether this process may mount a tmpfs (root, and not a container that forbids it):
/// probed once on a scratch directory.
enum TmpfsProbe {
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = NSTemporaryDirectory() + "tmpfs-probe-\(getpid())"
        guard (try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard (try? FullStateDirEndToEndTests.run(["/bin/mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe])) == 0 else { return false }
        return (try? FullStateDirEndToEndTests.run(["/bin/umount", probe])) == 0
    }()
}

/// Issue 38 item 5 against the real binary: `state_dir` on a small tmpfs that
/// fills up while the bridge runs. An optimistic toggle not safe to repeat is
/// never published On when its record fails (nothing was sent), and a pulsed
/// door whose press failed to record is pulsed by a later press once the disk
/// has room again (it was not held as "pulsed ... ago"). Needs root (mount).
@Suite("A full state directory end to end (real binary)", .serialized, .enabled(if: TmpfsProbe.canMount, "mounts a tmpfs: needs root and a kernel that lets it"))
struct FullStateDirEndToEndTests {
    static let actions = """
      - id: lamp
        label: Lamp
        kind: toggle
        command_topic: test/lamp/set
        optimistic: true
        repeat_safe: false
      - id: pulsed
        label: Old door
        pulse: {topic: test/relay/POWER, payload: "ON"}
        state_topic: test/contact
        state_field: contact
        on_value: "false"
        off_value: "true"
        travel_time_ms: 3000
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func aFailedRecordPublishesNothingOnAndHoldsNoDoor() throws {
        let world = try EndToEndHarness.with(actions: Self.actions, states: [("test/contact", #"{"contact":true}"#)], start: false)
        let stateDir = world.directory.file("state")
        try FileManager.default.createDirectory(atPath: stateDir, withIntermediateDirectories: true)
        try #require(try Self.run(["/bin/mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", stateDir]) == 0, "mount failed")
        defer {
            world.stopAll()
            _ = try? Self.run(["/bin/umount", "-l", stateDir])
        }
        try world.startBridge()
        let recorder = try MosquittoQoSRecorder(port: world.broker.port, topics: ["test/lamp/set", "test/relay/POWER"],
                                                directory: world.directory)
        #expect(world.waitForLog("its travel time since the start has passed", timeoutSeconds: 30), "\(world.log)")
        // The card fills up (dd ends at ENOSPC).
        let filler = stateDir + "/filler"
        _ = try Self.run(["/bin/dd", "if=/dev/zero", "of=\(filler)", "bs=4096"])

        _ = try world.press("lamp")
        #expect(world.waitForLog("could not be recorded"), "\(world.log)")
        _ = try world.press("pulsed")
        #expect(waitUntil(timeoutSeconds: 10) { world.log.components(separatedBy: "could not be recorded").count >= 3 }, "\(world.log)")
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("pulsed")?.state == .off }, "answered with the truth")
        let shownOn = world.simulator.history(slug: EndToEndHarness.widget).contains { record in
            record.tiles.contains { $0.id == "lamp" && $0.isOn }
        }
        #expect(!shownOn, "the lamp was published On although nothing was sent")
        #expect(recorder.records.isEmpty, "\(recorder.records)")

        // Room again: the door's next press pulses it (it was never held).
        try FileManager.default.removeItem(atPath: filler)
        _ = try world.press("pulsed")
        #expect(waitUntil(timeoutSeconds: 10) { recorder.records.map(\.topic) == ["test/relay/POWER"] },
                "\(recorder.records) \(world.log)")
        #expect(!world.log.contains("not pulsed again"), "\(world.log)")
    }
}
