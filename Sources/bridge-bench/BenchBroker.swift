import ShellSupport

/// The bench's private mosquitto on a free loopback port: the default broker
/// settings, or with `set_tcp_nodelay true` (mosquitto's default leaves Nagle's
/// algorithm on for the connections it accepts).
final class BenchBroker {
    let port: Int
    private let process: ChildProcess

    init(directory: String, tcpNoDelay: Bool) throws {
        guard let executable = ChildProcess.find("mosquitto") else {
            throw ProcessStartError.missingProgram("mosquitto", install: MosquittoProcess.installHint)
        }
        guard let port = LoopbackPort.free() else { throw ProcessStartError.notReady("a free loopback port") }
        let configPath = directory + "/mosquitto.conf"
        var config = "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n"
        if tcpNoDelay { config += "set_tcp_nodelay true\n" }
        try FileText.write(config, to: configPath)
        process = try ChildProcess(executable: executable, arguments: ["-c", configPath], logPath: directory + "/mosquitto.log")
        self.port = port
        guard LoopbackPort.waitUntilAccepting(port: port, timeoutMs: 5_000) else {
            process.stop()
            throw ProcessStartError.notReady("mosquitto on port \(port) (see \(directory)/mosquitto.log)")
        }
    }

    func stop() { process.stop() }
}
