import Foundation
import Testing
import TestSupport

/// Issue 19 item 1: two bridges on one `state_dir` (a forgotten `sudo
/// switchboard-bridge run` beside the service) each carried out every press
/// not safe to repeat. The second one now stops at start with exit 78 naming
/// the first one's PID, and `check` says the directory is held, by whom.
@Suite("State directory lock (real binary)", .serialized)
struct StateDirectoryLockTests {
    @Test func aSecondRunOnTheSameStateDirectoryExits78NamingTheHolder() throws {
        let world = try HostileWorld(script: [:])
        try world.startBridge()
        #expect(world.waitForLog("switchboard-bridge starting"), "\(world.log)")
        let first = try #require(world.bridgePID)
        let lockFile = world.directory.file("state/bridge.lock")
        #expect((try? String(contentsOfFile: lockFile, encoding: .utf8)) == "\(first)\n")

        let second = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable, arguments: ["run", "--config", world.configPath],
            directory: world.directory.path, name: "second", environment: ["SB_HOSTILE_TOKEN": HostileWorld.token])
        #expect(second.waitForExit(timeoutSeconds: 20) == 78, "\(second.stderr)")
        #expect(second.stderr.contains("another switchboard-bridge (PID \(first)) already runs"), "\(second.stderr)")
        #expect(!second.stderr.contains("switchboard-bridge starting"), "\(second.stderr)")
        #expect(world.isBridgeRunning, "the first bridge must not be disturbed")
        // The first one still holds it: its PID is still the one in the file.
        #expect((try? String(contentsOfFile: lockFile, encoding: .utf8)) == "\(first)\n")

        let check = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable, arguments: ["check", "--config", world.configPath],
            directory: world.directory.path, name: "check", environment: ["SB_HOSTILE_TOKEN": HostileWorld.token])
        #expect(check.waitForExit(timeoutSeconds: 20) == 0, "\(check.stderr)")
        #expect(check.stderr.contains("warning: state_dir: a switchboard-bridge (PID \(first)) runs on"), "\(check.stderr)")
        #expect(check.stderr.contains("exit 78"), "\(check.stderr)")
        #expect(world.isBridgeRunning, "check's probe must not disturb the running bridge")
    }

    @Test func theLockIsReleasedWhenTheHolderStopsEvenWithItsPIDLeftInTheFile() throws {
        let world = try HostileWorld(script: [:])
        try world.startBridge()
        #expect(world.waitForLog("switchboard-bridge starting"), "\(world.log)")
        world.killBridge()
        let check = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable, arguments: ["check", "--config", world.configPath],
            directory: world.directory.path, name: "check", environment: ["SB_HOSTILE_TOKEN": HostileWorld.token])
        #expect(check.waitForExit(timeoutSeconds: 20) == 0, "\(check.stderr)")
        #expect(!check.stderr.contains("runs on"), "\(check.stderr)")
        try world.startBridge()
        #expect(world.waitForLog("switchboard-bridge starting"), "\(world.log)")
        let second = try #require(world.bridgePID)
        #expect((try? String(contentsOfFile: world.directory.file("state/bridge.lock"), encoding: .utf8)) == "\(second)\n")
    }
}
