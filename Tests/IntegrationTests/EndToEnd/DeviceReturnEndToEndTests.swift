import AiviSim
import Foundation
import Testing
import TestSupport

/// Issue 22 item 3: a device that comes back (its availability says online again) is
/// asked for its state, at most once per device every 10 s; before, a Shelly that
/// restarted with its relay off stayed On on the phone. The real binary, broker, simulator.
@Suite("A device that comes back is asked its state (real binary)", .serialized)
struct DeviceReturnEndToEndTests {
    @Test func anOnlineAgainSendsTheStateQueryBoundedPerDevice() throws {
        let world = try EndToEndHarness()
        world.devices.publish("stat/dead/POWER", "ON", retain: true)
        world.devices.publish("tele/dead/LWT", "Online", retain: true)
        try world.startBridge()
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("dead") == true }, "\(world.log)")
        #expect(waitUntil(timeoutSeconds: 10) { world.devices.commands(on: "cmnd/dead/State") == [""] }, "the connect's query")

        // The plug restarts with its relay off: Offline, then Online, and it only says
        // OFF when asked. The first query of a return comes at most 10 s after the connect's.
        var flaps = 0
        let asked = waitUntil(timeoutSeconds: 30) {
            flaps += 1
            world.devices.publish("tele/dead/LWT", "Offline", retain: true)
            world.devices.publish("tele/dead/LWT", "Online", retain: true)
            return waitUntil(timeoutSeconds: 0.5) { world.devices.commands(on: "cmnd/dead/State").count > 1 }
        }
        #expect(asked, "no state query after \(flaps) returns\n\(world.log.suffix(3000))")
        #expect(world.devices.commands(on: "cmnd/dead/State") == ["", ""])
        world.devices.publish("stat/dead/POWER", "OFF")
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("dead") == false && world.tile("dead")?.state == .off })

        // Three more returns at once: within the 10 s, no more queries.
        let onlines = world.log.components(separatedBy: "mqtt tele/dead/LWT Online").count
        for _ in 0..<3 {
            world.devices.publish("tele/dead/LWT", "Offline", retain: true)
            world.devices.publish("tele/dead/LWT", "Online", retain: true)
        }
        #expect(waitUntil(timeoutSeconds: 10) { world.log.components(separatedBy: "mqtt tele/dead/LWT Online").count >= onlines + 3 },
                "\(world.log.suffix(2000))")
        #expect(world.devices.commands(on: "cmnd/dead/State") == ["", ""], "\(world.devices.commands(on: "cmnd/dead/State"))")
    }
}
