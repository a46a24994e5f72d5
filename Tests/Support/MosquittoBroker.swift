import Foundation
import ShellSupport

/// A real `mosquitto` broker on a free loopback port, in its own temp dir.
public final class MosquittoBroker: @unchecked Sendable {
    /// One user allowed to connect when the broker requires a password.
    public struct Credentials: Sendable {
        public let username: String
        public let password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    public let port: Int
    public let directory: TemporaryDirectory
    /// The running broker and how many times it was started (the project's one lock).
    private let run = ConditionLock<(child: ChildProcess?, startCount: Int)>((nil, 0))

    /// Certificates of the TLS listener, when the broker was made with `useTLS`.
    public let certificates: TestCertificates?

    /// Writes the config and starts the broker; returns once the port accepts.
    /// With `credentials`, anonymous clients are refused; with `useTLS` the listener
    /// speaks TLS only, with a certificate from `certificates` naming `serverNames`.
    public init(credentials: Credentials? = nil, useTLS: Bool = false, serverNames: [String] = TestCertificates.loopbackNames) throws {
        port = try LoopbackPort.free()
        directory = try TemporaryDirectory(prefix: "mosquitto")
        certificates = useTLS ? try TestCertificates(directory: directory, serverNames: serverNames) : nil
        try writeConfig(credentials: credentials)
        try start()
    }

    deinit {
        stop()
        directory.remove()
    }

    /// Starts the broker (again) on the same port and waits until it accepts.
    public func start() throws {
        let name = run.withLock { state in
            state.startCount += 1
            return "mosquitto-\(state.startCount)"
        }
        let process = try ChildProcess(
            executable: "/usr/sbin/mosquitto", arguments: ["-c", directory.file("mosquitto.conf")],
            directory: directory.path, name: name
        )
        run.withLock { $0.child = process }
        guard waitUntil(timeoutSeconds: 10, { LoopbackPort.accepts(port) || !process.isRunning }), process.isRunning else {
            throw TestSupportError("mosquitto did not start on port \(port): \(process.stderr)")
        }
    }

    /// Stops the broker by PID (SIGTERM, SIGKILL after a deadline) and waits for it.
    public func stop() {
        let process = run.withLock { state in
            defer { state.child = nil }
            return state.child
        }
        process?.stop()
    }

    /// Sends `signal` to the running broker, by its PID (SIGSTOP stalls it with its
    /// TCP connections alive; SIGCONT resumes it).
    public func send(_ signal: Int32) {
        run.withLock { $0.child }?.send(signal)
    }

    /// Stops and starts the broker on the same port (retained messages are lost:
    /// persistence is off).
    public func restart() throws {
        stop()
        try start()
    }

    private func writeConfig(credentials: Credentials?) throws {
        var lines = [
            "listener \(port) 127.0.0.1",
            "persistence false",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "log_type notice",
        ]
        if let certificates {
            lines += ["cafile \(certificates.caFile)", "certfile \(certificates.certificateFile)", "keyfile \(certificates.keyFile)"]
        }
        if let credentials {
            let passwordFile = directory.file("passwords")
            try runToCompletion("/usr/bin/mosquitto_passwd", ["-b", "-c", passwordFile, credentials.username, credentials.password])
            lines += ["allow_anonymous false", "password_file \(passwordFile)"]
        } else {
            lines.append("allow_anonymous true")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: directory.file("mosquitto.conf"), atomically: true, encoding: .utf8)
    }

    private func runToCompletion(_ executable: String, _ arguments: [String]) throws {
        let process = try ChildProcess(executable: executable, arguments: arguments, directory: directory.path, name: "setup")
        guard process.waitForExit(timeoutSeconds: 10) == 0 else {
            process.stop()
            throw TestSupportError("\(executable) failed: \(process.stderr)")
        }
    }
}

/// A failure of the test support itself (a helper could not set something up).
public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
