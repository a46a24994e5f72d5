import Foundation

/// A small HTTP/1.1 test server (python3, keep-alive) on 127.0.0.1, for the curl shell
/// tests until the project's own simulator is available. Every connection and request
/// is written to a log file the tests read.
///
/// Routes: `PATCH /echo` 200 echoing the body (headers `Content-Type`, `X-Test`);
/// `PATCH /ratelimited` 429 with `Retry-After: 7`; `PATCH|GET /slow` answers after 5 s;
/// `GET /big` a 100 000-byte body; `GET /events/NAME` scripted event streams:
/// `drop` (closes after one event; resumes after `Last-Event-ID`), `halfopen` (goes
/// silent after one event), `oversized`, `wrongtype` (text/html), `unavailable` (503).
public final class ScriptedHTTPServer: @unchecked Sendable {
    public let port: Int
    private let directory: TemporaryDirectory
    private let child: ChildProcess

    /// The server's certificates when it speaks HTTPS.
    public let certificates: TestCertificates?

    /// Starts the server; with `useTLS` it speaks HTTPS with a certificate for
    /// 127.0.0.1 signed by `certificates.caFile`.
    public init(useTLS: Bool = false) throws {
        directory = try TemporaryDirectory(prefix: "httpserver")
        certificates = useTLS ? try TestCertificates(directory: directory) : nil
        let script = directory.file("server.py")
        try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
        let portFile = directory.file("port")
        var arguments = ["python3", script, portFile, directory.file("requests.log")]
        if let certificates { arguments += [certificates.certificateFile, certificates.keyFile] }
        child = try ChildProcess(executable: "/usr/bin/env", arguments: arguments, directory: directory.path, name: "server")
        let child = child
        guard waitUntil(timeoutSeconds: 10, { FileManager.default.fileExists(atPath: portFile) || !child.isRunning }),
              let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text) else {
            child.stop()
            throw TestSupportError("test HTTP server did not start: \(child.stderr)")
        }
        self.port = port
    }

    deinit {
        child.stop()
        directory.remove()
    }

    public var baseURL: String { "\(certificates == nil ? "http" : "https")://127.0.0.1:\(port)" }

    /// The log lines: `CONN` per accepted connection, then one per request.
    public var log: [String] {
        let text = (try? String(contentsOfFile: directory.file("requests.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    public var connectionCount: Int { log.filter { $0.hasPrefix("CONN") }.count }

    public func stop() { child.stop() }

    private static let script = #"""
    import os, ssl, sys, time, threading
    from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler

    port_file, log_file = sys.argv[1], sys.argv[2]
    lock = threading.Lock()

    def log(line):
        with lock:
            with open(log_file, 'a') as f:
                f.write(line + '\n')

    class Handler(BaseHTTPRequestHandler):
        protocol_version = 'HTTP/1.1'

        def setup(self):
            super().setup()
            log('CONN')

        def log_message(self, *args):
            pass

        def read_body(self):
            length = int(self.headers.get('Content-Length') or 0)
            return self.rfile.read(length) if length else b''

        def reply(self, code, body=b'', headers=()):
            self.send_response(code)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_CONNECT(self):
            # A proxy's tunnel, answered by this server itself: the requests that
            # follow on the connection are the tunnelled ones (logged as any).
            log('CONNECT %s' % self.path)
            self.send_response(200, 'Connection established')
            self.end_headers()

        def do_PATCH(self):
            body = self.read_body()
            log('PATCH %s auth=%s body=%s' % (self.path, self.headers.get('Authorization'), body.decode()))
            if self.path == '/drop-on-reuse':
                # A kept-alive connection the server closes when reused, before any byte of the answer.
                served = getattr(self, 'served', 0)
                if served >= 1:
                    log('DROPPED')
                    self.close_connection = True
                    return
                self.served = served + 1
                self.reply(200, b'{"echo":' + body + b'}')
            elif self.path == '/drop':
                self.close_connection = True
            elif self.path == '/ratelimited':
                self.reply(429, b'{"error":"slow down"}', [('Retry-After', '7')])
            elif self.path == '/slow':
                time.sleep(5)
                self.reply(200)
            else:
                self.reply(200, b'{"echo":' + body + b'}', [('Content-Type', 'application/json'), ('X-Test', 'yes')])

        def do_GET(self):
            log('GET %s last-event-id=%s accept=%s' % (self.path, self.headers.get('Last-Event-ID'), self.headers.get('Accept')))
            if self.path == '/slow':
                time.sleep(5)
                self.reply(200)
            elif self.path == '/big':
                self.reply(200, b'x' * 100000)
            elif self.path.startswith('/events/'):
                self.events(self.path[len('/events/'):], self.headers.get('Last-Event-ID'))
            else:
                self.reply(404)

        def start_stream(self, content_type='text/event-stream'):
            self.send_response(200)
            self.send_header('Content-Type', content_type)
            self.send_header('Connection', 'close')
            self.end_headers()
            self.close_connection = True

        def send(self, text):
            self.wfile.write(text.encode())
            self.wfile.flush()

        def keep_alive(self):
            try:
                for _ in range(300):
                    time.sleep(0.1)
                    self.send(': keepalive\n\n')
            except (BrokenPipeError, ConnectionResetError):
                pass

        def events(self, name, last_id):
            if name == 'unavailable':
                return self.reply(503, b'down')
            if name == 'wrongtype':
                self.start_stream('text/html')
                return self.send('<html></html>')
            self.start_stream()
            if name == 'drop':
                if last_id is None:
                    return self.send('\ufeffretry: 50\nid: 1\nevent: widget.action.v1\ndata: one\n\n')
                self.send('id: 2\ndata: two\ndata: lines\n\n')
            elif name == 'halfopen':
                if last_id is None:
                    self.send('id: a\ndata: first\n\n')
                    time.sleep(30)
                    return
                self.send('id: b\ndata: second\n\n')
            elif name == 'oversized':
                self.send('id: big\ndata: ' + 'x' * 5000 + '\n\nid: ok\ndata: small\n\n')
            self.keep_alive()

    server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    server.daemon_threads = True
    if len(sys.argv) > 4:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[3], sys.argv[4])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    with open(port_file + '.tmp', 'w') as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + '.tmp', port_file)
    server.serve_forever()
    """#
}
