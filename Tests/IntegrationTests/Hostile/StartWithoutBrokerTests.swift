import BridgeDaemon
import Foundation
import Testing
import TestSupport

/// Issue 12 (lower): a broker down at boot is waited for, not a failed start:
/// READY=1 goes out at once and STATUS= says "waiting for the broker", so
/// systemd does not kill and restart the daemon every TimeoutStartSec.
@Suite("Start with the broker down (real binary)", .serialized)
struct StartWithoutBrokerTests {
    @Test func readyAtOnceAndWaitingForTheBroker() throws {
        let world = try HostileWorld(script: [:])
        world.broker.stop()
        let socketPath = world.directory.file("notify.sock")
        let receiver = try NotifyDatagramReceiver(address: .path(socketPath))
        try world.startBridge(environment: ["NOTIFY_SOCKET": socketPath])
        var seen: [String] = []
        while let datagram = try? receiver.receive(deadlineMs: 5_000) {
            seen.append(datagram)
            if seen.contains("READY=1"), seen.contains(where: { $0.contains("waiting for the broker") }) { break }
        }
        #expect(seen.contains("READY=1"), "\(seen)")
        #expect(seen.contains { $0.hasPrefix("STATUS=waiting for the broker") }, "\(seen)")
        try world.broker.start()
        #expect(world.waitForLog("published lights", timeoutSeconds: 20), "\(world.log)")
    }
}
