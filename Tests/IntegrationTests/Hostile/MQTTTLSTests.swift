import Foundation
import Testing
import TestSupport

/// Issue 12, item 1, against the real binary: every TLS form of the config
/// speaks TLS (the password never travels in clear), and a TLS broker with a
/// test CA still accepts the bridge.
@Suite("MQTT TLS (real binary)", .serialized)
struct MQTTTLSTests {
    @Test(arguments: ["tls: true", "tls: {}", "tls: {ca_file: CA}", "tls: {insecure: true}", "tls:\n    ca_file: CA",
                           // Review session 3, F-tls: a null value is TLS with the system CAs, never plaintext.
                           "tls:\n    # ca_file: CA", "tls:", "tls: ~", "tls: null"])
    func everyTLSFormSendsAClientHello(form: String) throws {
        let listener = try FirstBytesListener()
        let directory = try TemporaryDirectory(prefix: "tls-form")
        let certificates = try TestCertificates(directory: directory)
        let configPath = directory.file("bridge.yaml")
        let config = """
        aivi:
          api: http://127.0.0.1:9
          token_env: SB_TOKEN
        mqtt:
          host: 127.0.0.1
          port: \(listener.port)
          username: bridge
          password_file: \(directory.file("password"))
          \(form.replacingOccurrences(of: "CA", with: certificates.caFile))
        state_dir: \(directory.file("state"))
        widgets:
          - slug: lights
            actions:
              - id: porch
                label: Porch light
                kind: toggle
                zigbee2mqtt: porch
        """
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        try "secret-password\n".write(toFile: directory.file("password"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.file("password"))
        let bridge = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable, arguments: ["run", "--config", configPath],
            directory: directory.path, name: "bridge", environment: ["SB_TOKEN": "t", "PATH": "/usr/bin:/bin"])
        defer { bridge.stop(); directory.remove() }
        #expect(waitUntil(timeoutSeconds: 15) { !listener.firstBytes.isEmpty || !bridge.isRunning }, "\(bridge.stderr)")
        let connections = listener.firstBytes
        #expect(!connections.isEmpty, "\(bridge.stderr)")
        for bytes in connections {
            #expect(FirstBytesListener.isTLSClientHello(bytes), "plaintext to the broker: \(bytes) with '\(form)'")
        }
        if form.contains("insecure") { #expect(bridge.stderr.contains("NOT verified")) }
    }

    @Test func aTLSBrokerWithATestCAAcceptsTheBridge() throws {
        let broker = try MosquittoBroker(useTLS: true)
        let caFile = try #require(broker.certificates?.caFile)
        let world = try HostileWorld(script: [:], mqttExtra: "  tls: {ca_file: \(caFile)}", brokerOverride: broker)
        try world.startBridge()
        #expect(world.waitForLog("published lights", timeoutSeconds: 15), "\(world.log)")
    }

    @Test func withoutTheTestCATheSameBrokerIsRefused() throws {
        let broker = try MosquittoBroker(useTLS: true)
        let world = try HostileWorld(script: [:], mqttExtra: "  tls: true", brokerOverride: broker)
        try world.startBridge()
        #expect(world.waitForLog("recreating the client", timeoutSeconds: 15), "\(world.log)")
        #expect(world.log.contains("TLS"), "\(world.log)")
        #expect(world.log.contains("chain is not trusted by the system's CAs (/etc/ssl/certs)"), "\(world.log)")
        #expect(world.server.patchCount == 0)
    }

    /// Issue 19 item 18: the log says which check failed, with its fix, where it said
    /// "A TLS error occurred.": a chain no CA of the config vouches for ...
    @Test func anUntrustedChainIsSaidWithItsFix() throws {
        let broker = try MosquittoBroker(useTLS: true)
        let otherAuthority = try TestCertificates(directory: broker.directory, name: "other")
        let world = try HostileWorld(script: [:], mqttExtra: "  tls: {ca_file: \(otherAuthority.caFile)}", brokerOverride: broker)
        try world.startBridge()
        #expect(world.waitForLog("recreating the client", timeoutSeconds: 15), "\(world.log)")
        #expect(world.log.contains("TLS: the broker's certificate chain is not trusted by the CA in mqtt.tls.ca_file "
            + "\(otherAuthority.caFile) (certificate verify failed): set mqtt.tls.ca_file to the certificate of the CA"), "\(world.log)")
        #expect(!world.log.contains("host name"), "\(world.log)")
        #expect(!world.log.contains("A TLS error occurred"), "\(world.log)")
    }

    /// ... and a trusted certificate that names another host.
    @Test func aHostNameMismatchIsSaidWithItsFix() throws {
        let broker = try MosquittoBroker(useTLS: true, serverNames: ["DNS:broker.elsewhere.example"])
        let caFile = try #require(broker.certificates?.caFile)
        let world = try HostileWorld(script: [:], mqttExtra: "  tls: {ca_file: \(caFile)}", brokerOverride: broker)
        try world.startBridge()
        #expect(world.waitForLog("recreating the client", timeoutSeconds: 15), "\(world.log)")
        #expect(world.log.contains("TLS: the broker's certificate does not name '127.0.0.1' (host name verification failed): "
            + "set mqtt.host to a name the certificate carries"), "\(world.log)")
        #expect(!world.log.contains("not trusted"), "\(world.log)")
        #expect(!world.log.contains("A TLS error occurred"), "\(world.log)")
        #expect(world.server.patchCount == 0)
    }
}
