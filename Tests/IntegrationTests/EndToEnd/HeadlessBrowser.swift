import Foundation
import TestSupport

/// Debian's `chromium`, headless, on one page, driven through its DevTools
/// protocol by a small Python client (Debian's python3-websocket): waits for a
/// JavaScript predicate with a deadline, reports the browser's clock when it
/// first held, and takes screenshots. Stops the browser by PID.
final class HeadlessBrowser: @unchecked Sendable {
    static let chromium = "/usr/bin/chromium"
    static let python = "/usr/bin/python3"

    /// Why the browser test cannot run here, or nil when it can. In CI
    /// (`CI=true`) the test runs whatever this says, and fails if it is missing.
    static var missingReason: String? {
        if !FileManager.default.isExecutableFile(atPath: chromium) {
            return "chromium is not installed (apt-get install -y chromium python3-websocket)"
        }
        guard let scratch = try? TemporaryDirectory(prefix: "probe-websocket") else { return "no temporary directory" }
        defer { scratch.remove() }
        let probe = try? ChildProcess(executable: python, arguments: ["-c", "import websocket"],
                                      directory: scratch.path, name: "probe")
        guard probe?.waitForExit(timeoutSeconds: 30) == 0 else { return "python3-websocket is not installed" }
        return nil
    }

    static var isInCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    let directory: String
    private let process: ChildProcess
    private let driver: String
    private var steps = 0

    /// Opens `url` in a phone-sized window.
    init(url: String, directory: String) throws {
        self.directory = directory
        driver = directory + "/cdp.py"
        try Self.driverSource.write(toFile: driver, atomically: true, encoding: .utf8)
        process = try ChildProcess(executable: Self.chromium, arguments: [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-sync", "--mute-audio",
            "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--remote-allow-origins=*",
            "--user-data-dir=\(directory)/profile", "--window-size=390,1500", url,
        ], directory: directory, name: "chromium", environment: ["HOME": directory, "PATH": "/usr/bin:/bin"])
        guard waitUntil(timeoutSeconds: 30, { self.devToolsPort != nil || !self.process.isRunning }), process.isRunning else {
            throw TestSupportError("chromium did not start: \((try? String(contentsOfFile: process.stderrPath, encoding: .utf8)) ?? "")")
        }
    }

    deinit { process.stop() }

    func stop() { process.stop() }

    var pid: pid_t { process.pid }

    /// The DevTools port chromium chose (its profile's DevToolsActivePort).
    var devToolsPort: Int? {
        guard let text = try? String(contentsOfFile: directory + "/profile/DevToolsActivePort", encoding: .utf8) else { return nil }
        return Int(text.split(separator: "\n").first ?? "")
    }

    /// A wait started in the background: ready once the client is connected
    /// and polling, so what it waits for can be caused after `ready`.
    final class Wait: @unchecked Sendable {
        let process: ChildProcess
        let readyPath: String
        init(process: ChildProcess, readyPath: String) {
            self.process = process
            self.readyPath = readyPath
        }

        var isReady: Bool { FileManager.default.fileExists(atPath: readyPath) }

        /// The browser's clock (ms since the epoch) when the predicate first held, or the failure.
        func result(timeoutSeconds: Double) -> Result<Int64, TestSupportError> {
            let status = process.waitForExit(timeoutSeconds: timeoutSeconds)
            let output = (try? String(contentsOfFile: process.stdoutPath, encoding: .utf8)) ?? ""
            let errors = (try? String(contentsOfFile: process.stderrPath, encoding: .utf8)) ?? ""
            guard status == 0, let at = Int64(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                if status == nil { process.kill9() }
                return .failure(TestSupportError("wait failed (\(String(describing: status))): \(output) \(errors)"))
            }
            return .success(at)
        }
    }

    /// Starts polling the page for `predicate` (a JavaScript expression) every 20 ms, for `timeoutMs`.
    func startWait(_ predicate: String, timeoutMs: Int) throws -> Wait {
        steps += 1
        let readyPath = "\(directory)/wait-\(steps).ready"
        let process = try ChildProcess(
            executable: Self.python,
            arguments: [driver, "wait", String(devToolsPort ?? 0), predicate, String(timeoutMs), readyPath],
            directory: directory, name: "wait-\(steps)", environment: ["PATH": "/usr/bin:/bin"])
        return Wait(process: process, readyPath: readyPath)
    }

    /// Waits for `predicate` and returns the browser's clock when it held.
    func waitFor(_ predicate: String, timeoutMs: Int) throws -> Int64 {
        try startWait(predicate, timeoutMs: timeoutMs).result(timeoutSeconds: Double(timeoutMs) / 1_000 + 30).get()
    }

    /// The value of a JavaScript expression, as text.
    func evaluate(_ expression: String) throws -> String {
        try run(["eval", String(devToolsPort ?? 0), expression])
    }

    /// A PNG of the whole page at a phone's width (390 CSS pixels); returns
    /// the page's scroll width there (390 when nothing sticks out).
    func screenshot(to path: String) throws -> Int {
        Int(try run(["screenshot", String(devToolsPort ?? 0), path])) ?? -1
    }

    /// A PNG of the elements `selector` matches (their union's box), at a
    /// phone's width; returns the box's size as `WxH`.
    func screenshot(of selector: String, to path: String) throws -> String {
        try run(["shot", String(devToolsPort ?? 0), path, selector])
    }

    private func run(_ arguments: [String]) throws -> String {
        steps += 1
        let process = try ChildProcess(executable: Self.python, arguments: [driver] + arguments,
                                       directory: directory, name: "step-\(steps)", environment: ["PATH": "/usr/bin:/bin"])
        let status = process.waitForExit(timeoutSeconds: 60)
        let output = (try? String(contentsOfFile: process.stdoutPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            if status == nil { process.kill9() }
            let errors = (try? String(contentsOfFile: process.stderrPath, encoding: .utf8)) ?? ""
            throw TestSupportError("\(arguments[0]) failed (\(String(describing: status))): \(output) \(errors)")
        }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The DevTools client: `wait PORT PREDICATE TIMEOUT_MS READY_FILE`,
    /// `eval PORT EXPRESSION`, `screenshot PORT PATH`, `shot PORT PATH SELECTOR`. Loopback only.
    static let driverSource = #"""
    import base64, json, sys, time, urllib.request
    import websocket

    def connect(port):
        targets = json.load(urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port, timeout=10))
        page = next(t for t in targets if t.get("type") == "page")
        return websocket.create_connection(page["webSocketDebuggerUrl"], timeout=10, suppress_origin=True)

    class Client:
        def __init__(self, port):
            self.ws = connect(port)
            self.next_id = 0
        def call(self, method, **params):
            self.next_id += 1
            self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
            while True:
                answer = json.loads(self.ws.recv())
                if answer.get("id") == self.next_id:
                    if "error" in answer:
                        raise RuntimeError(answer["error"])
                    return answer["result"]
        def evaluate(self, expression):
            result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
            if "exceptionDetails" in result:
                return None
            return result["result"].get("value")

    command, port = sys.argv[1], int(sys.argv[2])
    client = Client(port)
    if command == "wait":
        predicate, timeout_ms, ready = sys.argv[3], int(sys.argv[4]), sys.argv[5]
        probe = "(() => { try { return (%s) ? Date.now() : 0; } catch (e) { return 0; } })()" % predicate
        open(ready, "w").close()
        deadline = time.monotonic() + timeout_ms / 1000.0
        while True:
            at = client.evaluate(probe)
            if at:
                print(int(at))
                sys.exit(0)
            if time.monotonic() > deadline:
                print("timed out; the page's main: " + str(client.evaluate("document.getElementById('live') && document.getElementById('live').innerText"))[:3000])
                sys.exit(1)
            time.sleep(0.02)
    elif command == "eval":
        print(client.evaluate(sys.argv[3]))
    elif command == "screenshot":
        client.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)
        deadline = time.monotonic() + 10
        while client.evaluate("document.documentElement.clientWidth") != 390 and time.monotonic() < deadline:
            time.sleep(0.02)
        metrics = client.call("Page.getLayoutMetrics")["cssContentSize"]
        shot = client.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                           clip={"x": 0, "y": 0, "width": 390, "height": min(metrics["height"], 4000), "scale": 1})
        open(sys.argv[3], "wb").write(base64.b64decode(shot["data"]))
        print(client.evaluate("document.documentElement.scrollWidth"))
    elif command == "shot":
        client.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=2, mobile=True)
        box = client.evaluate("(() => { const els = Array.from(document.querySelectorAll(%s)); if (!els.length) return null;"
                              " const r = els.map(e => e.getBoundingClientRect()); const x = Math.min(...r.map(b => b.left)),"
                              " y = Math.min(...r.map(b => b.top)) + window.scrollY; return {x: x, y: y,"
                              " width: Math.max(...r.map(b => b.right)) - x, height: Math.max(...r.map(b => b.bottom)) + window.scrollY - y}; })()"
                              % json.dumps(sys.argv[4]))
        if not box:
            print("no element matches " + sys.argv[4])
            sys.exit(1)
        shot = client.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                           clip={"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"], "scale": 1})
        open(sys.argv[3], "wb").write(base64.b64decode(shot["data"]))
        print("%dx%d" % (box["width"], box["height"]))
    """#
}
