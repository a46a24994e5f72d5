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
    }

    public let port: Int
    private let directory: TemporaryDirectory
    private let server: ChildProcess

    public init(mode: Mode) throws {
        directory = try TemporaryDirectory(prefix: "fake-broker")
        let source = directory.file("broker.py")
        try Self.source.write(toFile: source, atomically: true, encoding: .utf8)
        let portFile = directory.file("port")
        server = try ChildProcess(executable: "/usr/bin/env",
                                  arguments: ["python3", source, mode.rawValue, portFile, directory.file("levels.log")],
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

    public func stop() { server.stop() }

    private static let source = #"""
    import os, socket, sys, threading
    mode, port_file, log_file = sys.argv[1], sys.argv[2], sys.argv[3]
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
        try:
            kind, body = read_packet(c)
            if kind != 0x10:
                return
            level = body[6]
            with open(log_file, 'a') as f:
                f.write('%d\n' % level)
            if level == 5:
                if mode == 'v311-only':
                    c.sendall(bytes([0x20, 2, 0, 1]))
                return
            c.sendall(bytes([0x20, 2, 0, 0]))
            while True:
                kind, body = read_packet(c)
                if kind & 0xF0 == 0x80:
                    c.sendall(bytes([0x90, 3, body[0], body[1], 1]))
                elif kind & 0xF0 == 0x30 and kind & 0x06:
                    topic_length = (body[0] << 8) | body[1]
                    c.sendall(bytes([0x40, 2, body[2 + topic_length], body[3 + topic_length]]))
                elif kind == 0xC0:
                    c.sendall(bytes([0xD0, 0]))
                elif kind == 0xE0:
                    return
        except (EOFError, OSError, IndexError):
            pass
        finally:
            c.close()

    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()
    """#
}
