import Foundation

/// A loopback fake MQTT broker (python3) for what a real mosquitto cannot be made to do.
/// Records the protocol level of every CONNECT it receives.
public final class FakeMQTTBroker: @unchecked Sendable {
    /// How the fake behaves.
    public enum Mode: String, Sendable {
        /// An MQTT 3.1.1-only broker: answers an MQTT 5 CONNECT with a 3.1.1 CONNACK
        /// "unacceptable protocol version" (rc 1) and closes; accepts 3.1.1 (CONNACK 0,
        /// SUBACK, PUBACK, PINGRESP).
        case v311Only = "v311-only"
        /// Closes the connection right after an MQTT 5 CONNECT; accepts 3.1.1.
        case closesOnV5 = "closes-on-v5"
        /// Never accepts: `listen(0)` with its accept queue filled, so new SYNs are
        /// dropped (a firewalled or vanished broker host).
        case backlogFull = "backlog-full"
        /// 3.1.1 only (as `v311Only`); after the first SUBSCRIBE of a connection it sends
        /// `floodCount` QoS 2 PUBLISHes of `floodBytes` on the subscribed topic (its
        /// wildcards filled in) and never a PUBREL, whatever QoS was granted: a hostile
        /// broker making libmosquitto keep every one. Counts the PUBRECs it receives.
        case qos2Flood = "qos2-flood"
        /// Accepts every CONNECT (CONNACK 0, in the client's protocol) and closes the
        /// connection at once, without a DISCONNECT: a broker that keeps dropping the
        /// client (a connection limit, an ACL, a crash loop). Notes each connection's time.
        case dropsAfterConnack = "drops-after-connack"
    }

    public let port: Int
    private let directory: TemporaryDirectory
    private let server: ChildProcess

    public init(mode: Mode, floodCount: Int = 20_000, floodBytes: Int = 60_000) throws {
        directory = try TemporaryDirectory(prefix: "fake-broker")
        let source = directory.file("broker.py")
        try Self.source.write(toFile: source, atomically: true, encoding: .utf8)
        let portFile = directory.file("port")
        server = try ChildProcess(executable: "/usr/bin/env",
                                  arguments: ["python3", source, mode.rawValue, portFile, directory.file("levels.log"),
                                              "\(floodCount)", "\(floodBytes)", directory.file("flood.log")],
                                  directory: directory.path, name: "fake-broker")
        let server = server
        guard waitUntil(timeoutSeconds: 10, { FileManager.default.fileExists(atPath: portFile) || !server.isRunning }),
              let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text) else {
            server.stop()
            throw TestSupportError("fake broker did not start: \(server.stderr)")
        }
        self.port = port
    }

    deinit {
        server.stop()
        directory.remove()
    }

    /// The protocol level (4 = 3.1.1, 5 = MQTT 5) of each CONNECT so far, in order.
    public var connectLevels: [Int] {
        let text = (try? String(contentsOfFile: directory.file("levels.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { Int($0) }
    }

    /// `qos2Flood`: the QoS 2 PUBLISHes written to sockets so far, all connections together.
    public var floodPublishesSent: Int { floodCount("sent") }
    /// `qos2Flood`: the PUBRECs received so far (each one a message the client keeps until PUBREL).
    public var floodPubrecsReceived: Int { floodCount("pubrec") }
    /// `qos2Flood`: the flooded connections that ended (the client closed them).
    public var floodConnectionsEnded: Int { floodCount("ended") }

    /// `dropsAfterConnack`: when each connection was accepted (the fake's monotonic ms), in order.
    public var acceptedAtMs: [Int] { notes("accepted-at-ms") }

    private func floodCount(_ word: String) -> Int { notes(word).reduce(0, +) }

    private func notes(_ word: String) -> [Int] {
        let text = (try? String(contentsOfFile: directory.file("flood.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            return parts.count == 2 && parts[0] == word ? Int(parts[1]) : nil
        }
    }

    public func stop() { server.stop() }

    private static let source = #"""
    import os, socket, sys, threading, time
    mode, port_file, log_file = sys.argv[1], sys.argv[2], sys.argv[3]
    flood_count, flood_bytes, flood_log = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
    flood_lock = threading.Lock()
    send_locks = {}

    def send(c, data):
        # Whole packets: the flood thread and the answers never cut into each other.
        with send_locks.setdefault(id(c), threading.Lock()):
            c.sendall(data)

    def note(word, n):
        with flood_lock:
            with open(flood_log, 'a') as f:
                f.write('%s %d\n' % (word, n))

    def remaining_length(n):
        out = b''
        while True:
            byte = n & 0x7F
            n >>= 7
            out += bytes([byte | (0x80 if n else 0)])
            if not n:
                return out

    def flood(c, topic):
        payload = b'q' * flood_bytes
        encoded = topic.encode()
        sent = 0
        try:
            for mid in range(1, flood_count + 1):
                body = len(encoded).to_bytes(2, 'big') + encoded + (mid % 65535 + 1).to_bytes(2, 'big') + payload
                send(c, bytes([0x34]) + remaining_length(len(body)) + body)
                sent += 1
                if sent % 100 == 0:
                    note('sent', 100)
        except OSError:
            pass
        note('sent', sent % 100)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(('127.0.0.1', 0))
    port = listener.getsockname()[1]
    held = []
    if mode == 'backlog-full':
        listener.listen(0)
        for _ in range(8):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            s.connect_ex(('127.0.0.1', port))
            held.append(s)
    else:
        listener.listen(8)
    with open(port_file + '.tmp', 'w') as f:
        f.write(str(port))
    os.rename(port_file + '.tmp', port_file)
    if mode == 'backlog-full':
        threading.Event().wait()

    def read_exact(c, n):
        data = b''
        while len(data) < n:
            chunk = c.recv(n - len(data))
            if not chunk:
                raise EOFError()
            data += chunk
        return data

    def read_packet(c):
        kind = read_exact(c, 1)[0]
        length, shift = 0, 0
        while True:
            byte = read_exact(c, 1)[0]
            length += (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        return kind, read_exact(c, length)

    def serve(c):
        flooding = None
        try:
            kind, body = read_packet(c)
            if kind != 0x10:
                return
            level = body[6]
            with open(log_file, 'a') as f:
                f.write('%d\n' % level)
            if mode == 'drops-after-connack':
                note('accepted-at-ms', int(time.monotonic() * 1000))
                c.sendall(bytes([0x20, 3, 0, 0, 0]) if level == 5 else bytes([0x20, 2, 0, 0]))
                return
            if level == 5:
                if mode in ('v311-only', 'qos2-flood'):
                    c.sendall(bytes([0x20, 2, 0, 1]))
                return
            c.sendall(bytes([0x20, 2, 0, 0]))
            while True:
                kind, body = read_packet(c)
                if kind & 0xF0 == 0x80:
                    send(c, bytes([0x90, 3, body[0], body[1], 1]))
                    if mode == 'qos2-flood' and flooding is None:
                        topic_length = (body[2] << 8) | body[3]
                        topic = body[4:4 + topic_length].decode().replace('+', 'x').replace('#', 'x')
                        flooding = threading.Thread(target=flood, args=(c, topic), daemon=True)
                        flooding.start()
                elif kind == 0x50:
                    note('pubrec', 1)
                elif kind & 0xF0 == 0x30 and kind & 0x06:
                    topic_length = (body[0] << 8) | body[1]
                    send(c, bytes([0x40, 2, body[2 + topic_length], body[3 + topic_length]]))
                elif kind == 0xC0:
                    send(c, bytes([0xD0, 0]))
                elif kind == 0xE0:
                    return
        except (EOFError, OSError, IndexError):
            pass
        finally:
            if mode == 'qos2-flood' and flooding:
                note('ended', 1)
            c.close()

    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()
    """#
}
