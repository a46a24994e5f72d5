import Foundation

/// A `mosquitto_sub` child subscribed at QoS 2 that records each message's
/// delivered QoS (the publisher's QoS, as the subscription allows up to 2),
/// topic and payload: what a test needs to assert a command's exact shape.
public final class MosquittoQoSRecorder: @unchecked Sendable {
    /// One received message.
    public struct Record: Sendable, Equatable {
        public let qos: Int
        public let topic: String
        public let payload: String

        public init(qos: Int, topic: String, payload: String) {
            self.qos = qos
            self.topic = topic
            self.payload = payload
        }
    }

    private let child: ChildProcess
    private let port: Int
    private let directory: TemporaryDirectory
    private let probeTopic = "testsupport/qos-probe/\(UUID().uuidString)"

    /// Subscribes to `topics` at QoS 2 and returns once the subscription is live.
    public init(port: Int, topics: [String], directory: TemporaryDirectory) throws {
        self.port = port
        self.directory = directory
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-q", "2", "-F", "%q %t %p", "-t", probeTopic]
        for topic in topics { arguments += ["-t", topic] }
        child = try ChildProcess(executable: "/usr/bin/mosquitto_sub", arguments: arguments, directory: directory.path,
                                 name: "qos-recorder-\(UUID().uuidString)")
        let live = try waitUntil(timeoutSeconds: 10) {
            try MosquittoCLI.publish(port: port, topic: probeTopic, payload: "probe", qos: 0, directory: directory)
            return child.stdout.contains(probeTopic)
        }
        guard live else { throw TestSupportError("mosquitto_sub never received its probe: \(child.stderr)") }
    }

    deinit { child.stop() }

    /// Every message so far, probes excluded.
    public var records: [Record] {
        child.stdout.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, let qos = Int(parts[0]), parts[1] != Substring(probeTopic) else { return nil }
            return Record(qos: qos, topic: String(parts[1]), payload: parts.count == 3 ? String(parts[2]) : "")
        }
    }

    public func stop() { child.stop() }
}
