import Glibc

/// A private `mosquitto` broker on a free loopback port, in a temp directory
/// (the demo's and the benchmark's broker).
public final class MosquittoProcess: Sendable {
    public static let installHint = "sudo apt-get install -y mosquitto"

    public let port: Int
    public let directory: String
    private let process: ChildProcess

    /// Starts the broker and waits until it accepts connections.
    /// `tcpNoDelay` turns Nagle's algorithm off on the broker's side too
    /// (`set_tcp_nodelay true`): with it on, a QoS 1 acknowledgement and the
    /// device's answer after it stall ~40 ms on delayed ACKs.
    /// `port` nil picks a free one; a restarted broker passes its predecessor's
    /// (and its own `logName`, to keep the earlier log).
    public init(directory: String, tcpNoDelay: Bool = true, port fixedPort: Int? = nil,
                logName: String = "mosquitto.log") throws(ProcessStartError) {
        guard let executable = ChildProcess.find("mosquitto") else {
            throw .missingProgram("mosquitto", install: Self.installHint)
        }
        guard let port = fixedPort ?? LoopbackPort.free() else { throw .notReady("a free loopback port") }
        let configPath = directory + "/mosquitto.conf"
        var config = "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n"
        if tcpNoDelay { config += "set_tcp_nodelay true\n" }
        do { try FileText.write(config, to: configPath) } catch { throw .cannotStart("mosquitto", "\(error)") }
        process = try ChildProcess(executable: executable, arguments: ["-c", configPath], logPath: directory + "/" + logName)
        self.port = port
        self.directory = directory
        guard LoopbackPort.waitUntilAccepting(port: port, timeoutMs: 5_000) else {
            process.stop()
            throw .notReady("mosquitto on port \(port) (see \(directory)/\(logName))")
        }
    }

    public func stop() { process.stop() }

    /// SIGKILL: the broker dies without a word to its clients.
    public func kill() { process.killNow() }

    /// Sends `signal` to the broker by its PID: SIGSTOP stalls it (its TCP connections
    /// stay open, nothing is answered), SIGCONT resumes it.
    public func send(_ signal: Int32) { process.send(signal) }
}

/// Small text files and private directories.
public enum FileText {
    /// A file that could not be written.
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
    }

    public static func write(_ text: String, to path: String) throws(WriteError) {
        guard let file = fopen(path, "w") else { throw WriteError(path: path) }
        defer { fclose(file) }
        guard fputs(text, file) >= 0 else { throw WriteError(path: path) }
    }

    /// A fresh private directory under /tmp.
    public static func temporaryDirectory(prefix: String) -> String? {
        // $TMPDIR when set (as mktemp does), else /tmp.
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, let made = mkdtemp(base) else { return nil }
            return String(cString: made)
        }
    }
}
