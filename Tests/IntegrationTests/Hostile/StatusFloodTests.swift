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
        let flood = try StatusClientScript(name: "flood", python: Self.python, port: port, clients: Self.clients)
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

    /// Each client sends GET / and HEAD / in turn on a kept-alive connection, as
    /// fast as answers come; the total is reported twice a second.
    static let python = """
    import http.client, os, sys, threading, time
    port, clients, report = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    count = [0]
    lock = threading.Lock()
    def client():
        connection = None
        while True:
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                for method in ("GET", "HEAD"):
                    connection.request(method, "/")
                    connection.getresponse().read()
                    with lock:
                        count[0] += 1
            except Exception:
                connection = None
                time.sleep(0.01)
    for _ in range(clients):
        threading.Thread(target=client, daemon=True).start()
    while True:
        time.sleep(0.5)
        with lock:
            value = count[0]
        with open(report + ".tmp", "w") as f:
            f.write(str(value))
        os.replace(report + ".tmp", report)
    """
}
