import AiviSim
import Foundation
import Testing
import TestSupport

/// Issue 38 item 7 against the real binary: 64 clients flooding `GET /` and
/// `HEAD /` on kept-alive connections while presses go on. Every press reaches
/// its device (none lost, each within a bound), and the flood is paced: the
/// status server reads at most its 50 requests a second (burst 25), so the
/// clients wait in their sockets instead of the loop answering thousands a second.
@Suite("Status page flood (real binary, issue 38 item 7)", .serialized)
struct StatusFloodTests {
    static let clients = 64

    @Test func pressesGoOnWhileSixtyFourClientsFloodThePage() throws {
        let world = try EndToEndHarness()
        defer { world.stopAll() }
        let port = try LoopbackPort.free()
        let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
        try (config + "\nstatus:\n  listen: 127.0.0.1:\(port)\n").write(toFile: world.configPath, atomically: true, encoding: .utf8)
        try world.startBridge()
        let flood = try StatusClientScript(name: "flood", python: StatusPageFloodScript.python, port: port, clients: Self.clients)
        defer { flood.stop() }
        #expect(waitUntil(timeoutSeconds: 20) { flood.reported >= 30 }, "the flood got no answers: \(world.log.suffix(2_000))")

        let startCount = flood.reported
        let start = Date()
        var lost: [String] = []
        // 15 presses from 4 phones: inside the service's burst (20 an account, 8 a phone).
        for index in 0..<15 {
            let before = world.devices.received.values.filter { $0.topic == "home/scene/set" }.count
            let id = try world.press("movie", phone: "phone-\(index % 4)")
            let arrived = waitUntil(timeoutSeconds: 3) {
                world.devices.received.values.filter { $0.topic == "home/scene/set" }.count > before
            }
            if !arrived { lost.append("press \(index) (\(id))") }
        }
        // The flood goes on meanwhile (reported twice a second).
        #expect(waitUntil(timeoutSeconds: 5) { flood.reported > startCount }, "the flood got no answer while presses went on")
        let seconds = Date().timeIntervalSince(start)
        let answered = flood.reported - startCount
        #expect(lost.isEmpty, "presses lost or later than 3 s: \(lost)")
        // The pace: 50 a second and a burst of 25, with a report's worth of slack (0.5 s).
        let bound = Int((seconds + 1.0) * 50) + 25
        #expect(answered <= bound, "\(answered) answers in \(seconds) s: the flood was not paced (bound \(bound))")
        #expect(world.bridge?.isRunning == true)
    }

}
