import Foundation

/// `mosquitto_pub` / `mosquitto_sub` as independent MQTT clients for tests.
public enum MosquittoCLI {
    /// Publishes one message with `mosquitto_pub` and waits for it to finish.
    public static func publish(port: Int, topic: String, payload: String, retain: Bool = false, qos: Int = 1, directory: TemporaryDirectory) throws {
        try publish(port: port, topic: topic, payloadArguments: ["-m", payload], retain: retain, qos: qos, directory: directory)
    }

    /// Publishes the contents of the file at `payloadPath` (a payload larger than
    /// one command-line argument may be: 128 KiB).
    public static func publish(port: Int, topic: String, payloadPath: String, retain: Bool = false, qos: Int = 1, directory: TemporaryDirectory) throws {
        try publish(port: port, topic: topic, payloadArguments: ["-f", payloadPath], retain: retain, qos: qos, directory: directory)
    }

    private static func publish(port: Int, topic: String, payloadArguments: [String], retain: Bool, qos: Int, directory: TemporaryDirectory) throws {
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-q", "\(qos)"] + payloadArguments
        if retain { arguments.append("-r") }
        let process = try ChildProcess(executable: "/usr/bin/mosquitto_pub", arguments: arguments, directory: directory.path, name: "pub-\(UUID().uuidString)")
        guard process.waitForExit(timeoutSeconds: 10) == 0 else {
            process.stop()
            throw TestSupportError("mosquitto_pub failed: \(process.stderr)")
        }
    }

    /// The retained payload of `topic`, or nil if none arrives within `timeoutSeconds`.
    public static func retainedPayload(port: Int, topic: String, timeoutSeconds: Int = 3, directory: TemporaryDirectory) throws -> String? {
        let arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-C", "1", "-W", "\(timeoutSeconds)", "--retained-only"]
        let process = try ChildProcess(executable: "/usr/bin/mosquitto_sub", arguments: arguments, directory: directory.path, name: "sub-\(UUID().uuidString)")
        guard process.waitForExit(timeoutSeconds: Double(timeoutSeconds) + 5) == 0 else {
            process.stop()
            return nil
        }
        let output = process.stdout
        return output.hasSuffix("\n") ? String(output.dropLast()) : output
    }
}

/// A `mosquitto_sub -v` child recording every message on its topics; it reconnects
/// and resubscribes by itself after a broker restart.
public final class MosquittoSubscriber: @unchecked Sendable {
    private let child: ChildProcess
    private let port: Int
    private let directory: TemporaryDirectory
    private let probeTopic = "testsupport/probe/\(UUID().uuidString)"

    /// Subscribes to `topics` and returns once the subscription is live.
    public init(port: Int, topics: [String], directory: TemporaryDirectory) throws {
        self.port = port
        self.directory = directory
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-v", "-q", "1", "-t", probeTopic]
        for topic in topics { arguments += ["-t", topic] }
        child = try ChildProcess(executable: "/usr/bin/mosquitto_sub", arguments: arguments, directory: directory.path, name: "subscriber-\(UUID().uuidString)")
        try waitUntilLive()
    }

    deinit { child.stop() }

    /// Publishes probes until the subscriber prints one (it is then subscribed).
    public func waitUntilLive(timeoutSeconds: Double = 10) throws {
        let live = try waitUntil(timeoutSeconds: timeoutSeconds) {
            try MosquittoCLI.publish(port: port, topic: probeTopic, payload: "probe", qos: 0, directory: directory)
            return child.stdout.contains(probeTopic)
        }
        guard live else { throw TestSupportError("mosquitto_sub never received its probe: \(child.stderr)") }
    }

    /// Every message received so far as (topic, payload), probes excluded.
    public var messages: [(topic: String, payload: String)] {
        child.stdout.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] != Substring(probeTopic) else { return nil }
            return (String(parts[0]), String(parts[1]))
        }
    }

    /// The payloads received on `topic`, in order.
    public func payloads(on topic: String) -> [String] {
        messages.filter { $0.topic == topic }.map(\.payload)
    }

    public func stop() { child.stop() }
}
