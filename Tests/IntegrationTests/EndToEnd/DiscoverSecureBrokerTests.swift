import CoreTestSupport
import Foundation
import MQTTShell
import Testing
import TestSupport

/// `discover` with the config's connection options against a broker that wants TLS and a
/// password: the file it writes names them, `check` accepts it, and a wrong password is
/// reported without the password.
@Suite(.serialized) struct DiscoverSecureBrokerTests {
    @Test func tlsAndPasswordAreUsedAndWrittenBack() throws {
        let broker = try MosquittoBroker(credentials: .init(username: "bridge", password: "s3cret-pw"), useTLS: true)
        defer { broker.stop() }
        let caFile = try #require(broker.certificates?.caFile)
        let directory = try TemporaryDirectory(prefix: "discover-tls")
        defer { directory.remove() }
        let passwordFile = directory.file("mqtt-password")
        try "s3cret-pw\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        chmod(passwordFile, 0o600)

        let device = MQTTClient(settings: MQTTSettings(
            host: "127.0.0.1", port: broker.port, clientId: "tasmota-device", username: "bridge", password: "s3cret-pw",
            tls: MQTTSettings.TLS(caFile: caFile))) { _ in }
        try device.start()
        defer { device.stop() }
        #expect(waitUntil { device.isConnected })
        try device.publish(topic: "tasmota/discovery/A4CF12B3C4D5/config", payload: Array(DiscoveryFixtures.tasmotaSingleRelay.utf8),
                           qos: .atLeastOnce, retain: true)

        let output = directory.file("bridge.yaml")
        let common = ["discover", "--mqtt-host", "127.0.0.1", "--port", "\(broker.port)", "--username", "bridge",
                      "--tls-ca-file", caFile, "--seconds", "1", "--token-file", directory.file("token"),
                      "--state-dir", directory.file("state")]
        let found = try run(directory, "discover", common + ["--password-file", passwordFile, "--output", output])
        #expect(found.status == 0, "\(found.stderr)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("  username: bridge\n  password_file: \(passwordFile)\n  tls: { ca_file: '\(caFile)' }\n"))
        #expect(text.contains("tasmota: huzzah_1"))
        #expect(!text.contains("s3cret-pw"))

        try "token\n".write(toFile: directory.file("token"), atomically: true, encoding: .utf8)
        chmod(directory.file("token"), 0o600)
        let check = try run(directory, "check", ["check", "--config", output])
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")

        let wrongFile = directory.file("wrong-password")
        try "not-it\n".write(toFile: wrongFile, atomically: true, encoding: .utf8)
        let refused = try run(directory, "refused", common + ["--password-file", wrongFile])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("did not let in the username 'bridge' with the password in \(wrongFile)") && !refused.stderr.contains("not-it"), "\(refused.stderr)")
    }

    private func run(_ directory: TemporaryDirectory, _ name: String, _ arguments: [String]) throws -> DiscoverRun.Outcome {
        try DiscoverRun.command(arguments, directory: directory, name: name)
    }
}
