import Foundation

/// A loopback TCP listener (python3) that records the first bytes each client
/// sends, then hangs up: tells a TLS ClientHello from a plaintext MQTT CONNECT.
public final class FirstBytesListener: @unchecked Sendable {
    public let port: Int
    private let directory: TemporaryDirectory
    private let server: ChildProcess

    public init() throws {
        directory = try TemporaryDirectory(prefix: "first-bytes")
        let source = directory.file("listener.py")
        try Self.source.write(toFile: source, atomically: true, encoding: .utf8)
        let portFile = directory.file("port")
        server = try ChildProcess(executable: "/usr/bin/env", arguments: ["python3", source, portFile, directory.file("bytes.log")],
                                  directory: directory.path, name: "first-bytes")
        let server = server
        guard waitUntil(timeoutSeconds: 10, { FileManager.default.fileExists(atPath: portFile) || !server.isRunning }),
              let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text) else {
            server.stop()
            throw TestSupportError("first-bytes listener did not start: \(server.stderr)")
        }
        self.port = port
    }

    deinit {
        server.stop()
        directory.remove()
    }

    /// The first bytes of each connection so far, in arrival order.
    public var firstBytes: [[UInt8]] {
        let text = (try? String(contentsOfFile: directory.file("bytes.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            stride(from: 0, to: line.count - 1, by: 2).compactMap { offset in
                let start = line.index(line.startIndex, offsetBy: offset)
                return UInt8(line[start..<line.index(start, offsetBy: 2)], radix: 16)
            }
        }
    }

    /// A TLS handshake record carrying a ClientHello (RFC 8446 §5.1, §4).
    public static func isTLSClientHello(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 6 && bytes[0] == 0x16 && bytes[1] == 0x03 && bytes[5] == 0x01
    }

    public func stop() { server.stop() }

    private static let source = #"""
    import os, socket, sys
    port_file, log_file = sys.argv[1], sys.argv[2]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(('127.0.0.1', 0))
    listener.listen(8)
    with open(port_file + '.tmp', 'w') as f:
        f.write(str(listener.getsockname()[1]))
    os.rename(port_file + '.tmp', port_file)
    while True:
        connection, _ = listener.accept()
        connection.settimeout(3)
        data = b''
        try:
            while len(data) < 6:
                chunk = connection.recv(6 - len(data))
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
        connection.close()
        with open(log_file, 'a') as f:
            f.write(data.hex() + '\n')
    """#
}
