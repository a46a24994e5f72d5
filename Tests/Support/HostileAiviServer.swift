import Foundation

/// A hostile stand-in for the Aivi service (python3, 127.0.0.1): answers every
/// `PATCH` and the event stream exactly as the test scripts it, header by header,
/// and logs each request with the time it arrived. The script is a JSON file the
/// server re-reads per request, so a test can change the behaviour mid-run.
///
/// Script keys: `patch_interim` ([[status, [[name, value]]]]: informational heads
/// sent before the answer's), `patch_status` (200), `patch_headers` ([[name, value]]),
/// `events_status` (200), `events_headers` ([[name, value]]), `events_body`
/// (text sent once), `events_hold_s` (how long the stream then stays open with
/// keep-alive comments; 0 closes at once), `events_more` (texts sent after the
/// body while the stream is held, each connection from the first, but only the
/// first `events_release` of them: a test raises it to deliver the next part
/// once the bridge has handled the last one, instead of pacing by time).
public final class HostileAiviServer: @unchecked Sendable {
    public let port: Int
    private let directory: TemporaryDirectory
    private let server: ChildProcess

    public init(script: [String: Any]) throws {
        directory = try TemporaryDirectory(prefix: "hostile-aivi")
        try Self.write(script, to: directory.file("script.json"))
        let source = directory.file("server.py")
        try Self.source.write(toFile: source, atomically: true, encoding: .utf8)
        let portFile = directory.file("port")
        server = try ChildProcess(
            executable: "/usr/bin/env",
            arguments: ["python3", source, portFile, directory.file("requests.log"), directory.file("script.json")],
            directory: directory.path, name: "hostile-aivi")
        let server = server
        guard waitUntil(timeoutSeconds: 10, { FileManager.default.fileExists(atPath: portFile) || !server.isRunning }),
              let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text) else {
            server.stop()
            throw TestSupportError("hostile Aivi server did not start: \(server.stderr)")
        }
        self.port = port
    }

    deinit {
        server.stop()
        directory.remove()
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Replaces the script (atomically).
    public func setScript(_ script: [String: Any]) throws {
        try Self.write(script, to: directory.file("script.json"))
    }

    private static func write(_ script: [String: Any], to path: String) throws {
        let data = try JSONSerialization.data(withJSONObject: script)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// One line per request: `PATCH <monotonic s> <path>` or `GET <monotonic s> <path>`.
    public var log: [String] {
        let text = (try? String(contentsOfFile: directory.file("requests.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    public var patchCount: Int { log.filter { $0.hasPrefix("PATCH") }.count }
    public var streamRequestCount: Int { log.filter { $0.hasPrefix("GET") }.count }

    /// Arrival times (monotonic seconds) of the requests of one method.
    public func times(_ method: String) -> [Double] {
        log.filter { $0.hasPrefix(method + " ") }.compactMap { Double($0.split(separator: " ")[1]) }
    }

    public func stop() { server.stop() }

    private static let source = #"""
    import json, os, sys, time, threading
    from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler

    port_file, log_file, script_file = sys.argv[1], sys.argv[2], sys.argv[3]
    lock = threading.Lock()

    def log(line):
        with lock:
            with open(log_file, 'a') as f:
                f.write(line + '\n')

    def script():
        with open(script_file) as f:
            return json.load(f)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = 'HTTP/1.1'

        def log_message(self, *args):
            pass

        def do_PATCH(self):
            length = int(self.headers.get('Content-Length') or 0)
            if length:
                self.rfile.read(length)
            log('PATCH %.3f %s' % (time.monotonic(), self.path))
            s = script()
            for status, headers in s.get('patch_interim', []):
                self.send_response_only(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
            self.send_response_only(s.get('patch_status', 200))
            for name, value in s.get('patch_headers', []):
                self.send_header(name, value)
            self.send_header('Content-Length', '2')
            self.end_headers()
            self.wfile.write(b'{}')

        def do_GET(self):
            log('GET %.3f %s' % (time.monotonic(), self.path))
            s = script()
            self.send_response_only(s.get('events_status', 200))
            self.send_header('Content-Type', 'text/event-stream')
            for name, value in s.get('events_headers', []):
                self.send_header(name, value)
            self.send_header('Connection', 'close')
            self.end_headers()
            self.close_connection = True
            try:
                self.wfile.write(s.get('events_body', '').encode())
                self.wfile.flush()
                deadline = time.monotonic() + s.get('events_hold_s', 30)
                sent, seen = 0, os.stat(script_file).st_mtime_ns
                while time.monotonic() < deadline:
                    time.sleep(0.05)
                    if os.stat(script_file).st_mtime_ns != seen:
                        seen = os.stat(script_file).st_mtime_ns
                        s = script()
                    more = s.get('events_more', [])[:s.get('events_release', 0)]
                    for part in more[sent:]:
                        self.wfile.write(part.encode())
                    sent = max(sent, len(more))
                    self.wfile.write(b': keepalive\n\n')
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass

    server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    server.daemon_threads = True
    with open(port_file + '.tmp', 'w') as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + '.tmp', port_file)
    server.serve_forever()
    """#
}
