import Foundation
import Testing
import TestSupport

/// Issue 22 item 6, against the real binary and a real mosquitto with a password file:
/// a wrong password and a missing username are told apart by the login the bridge
/// gave (the username, or none), pointing at the setting to change — `mqtt.username`
/// and `mqtt.password_file` for `run` and `watch`, `--username` and `--password-file`
/// for `discover` — and never show the password. The old line was "broker refused the
/// connection: Not authorized; recreating the client" for both.
@Suite("A refused MQTT login names the username and the setting (real binary)", .serialized)
struct BrokerLoginRefusalTests {
    static let password = "right-pw-4Tq"
    static let wrongPassword = "wrong-pw-never-shown-9Zk"

    enum Login: CaseIterable { case noUsername, wrongPassword, noPassword }

    struct World {
        let directory: TemporaryDirectory
        let broker: MosquittoBroker
        let passwordFile: String
        let configPath: String
    }

    static func world(_ login: Login, name: String) throws -> World {
        let broker = try MosquittoBroker(credentials: .init(username: "bridge", password: password))
        let directory = try TemporaryDirectory(prefix: "login-\(name)")
        let passwordFile = directory.file("mqtt-password")
        try (wrongPassword + "\n").write(toFile: passwordFile, atomically: true, encoding: .utf8)
        chmod(passwordFile, 0o600)
        let credentials = switch login {
        case .noUsername: ""
        case .wrongPassword: "  username: bridge\n  password_file: \(passwordFile)\n"
        case .noPassword: "  username: bridge\n"
        }
        let configPath = directory.file("bridge.yaml")
        try """
        aivi:
          api: http://127.0.0.1:9/
          token_env: SB_LOGIN_TOKEN
        mqtt:
          host: 127.0.0.1
          port: \(broker.port)
        \(credentials)state_dir: \(directory.file("state"))
        widgets:
          - slug: w
            actions:
              - id: porch
                label: Porch
                kind: toggle
                zigbee2mqtt: porch
        """.write(toFile: configPath, atomically: true, encoding: .utf8)
        return World(directory: directory, broker: broker, passwordFile: passwordFile, configPath: configPath)
    }

    static func expected(_ login: Login, world: World, username: String, passwordFile: String, place: String, verb: String) -> String {
        let broker = "127.0.0.1:\(world.broker.port)"
        return switch login {
        case .noUsername:
            "the broker at \(broker) wants a username and password, and none was given: \(verb) \(username) and \(passwordFile) \(place)"
        case .wrongPassword:
            "the broker at \(broker) did not let in the username 'bridge' with the password in \(world.passwordFile): "
                + "check \(username) and the password in that file (\(passwordFile) \(place)) against the broker's users"
        case .noPassword:
            "the broker at \(broker) did not let in the username 'bridge' without a password: \(verb) \(passwordFile) \(place)"
        }
    }

    @Test(arguments: Login.allCases)
    func runSaysWhichLoginWasRefused(login: Login) throws {
        let world = try Self.world(login, name: "run")
        defer { world.broker.stop(); world.directory.remove() }
        let bridge = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable, arguments: ["run", "--config", world.configPath],
            directory: world.directory.path, name: "run", environment: ["SB_LOGIN_TOKEN": "token", "PATH": "/usr/bin:/bin"])
        defer { bridge.stop() }
        let sentence = Self.expected(login, world: world, username: "mqtt.username", passwordFile: "mqtt.password_file",
                                     place: "in \(world.configPath)", verb: "set")
        #expect(waitUntil(timeoutSeconds: 20) { bridge.stderr.contains(sentence) }, "\(bridge.stderr)")
        let line = bridge.stderr.split(separator: "\n").first { $0.contains(sentence) } ?? ""
        #expect(line.contains("error ") && line.contains("(the broker answered \"not authorized\"); trying again in "), "\(line)")
        let seconds = Int(line.split(separator: " ").dropLast().last ?? "") ?? 0
        #expect((5...10).contains(seconds), "the first retry, 10 s jittered down to half at most: \(line)")
        #expect(!bridge.stderr.contains("recreating the client") && !bridge.stderr.contains(Self.wrongPassword), "\(bridge.stderr)")
    }

    @Test(arguments: Login.allCases)
    func watchSaysWhichLoginWasRefused(login: Login) throws {
        let world = try Self.world(login, name: "watch")
        defer { world.broker.stop(); world.directory.remove() }
        let watch = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable, arguments: ["watch", "--config", world.configPath, "--seconds", "2"],
            directory: world.directory.path, name: "watch", environment: ["PATH": "/usr/bin:/bin"])
        #expect(watch.waitForExit(timeoutSeconds: 30) == 1)
        let sentence = Self.expected(login, world: world, username: "mqtt.username", passwordFile: "mqtt.password_file",
                                     place: "in \(world.configPath)", verb: "set")
        let output = watch.stdout + watch.stderr
        #expect(output.contains(sentence), "\(output)")
        #expect(!output.contains("refused the connection: Not authorized") && !output.contains(Self.wrongPassword), "\(output)")
    }

    @Test(arguments: Login.allCases)
    func discoverSaysWhichOptionsToGive(login: Login) throws {
        let world = try Self.world(login, name: "discover")
        defer { world.broker.stop(); world.directory.remove() }
        var arguments = ["discover", "--mqtt-host", "127.0.0.1", "--port", "\(world.broker.port)", "--seconds", "1",
                         "--token-file", world.directory.file("token"), "--state-dir", world.directory.file("state")]
        switch login {
        case .noUsername: break
        case .wrongPassword: arguments += ["--username", "bridge", "--password-file", world.passwordFile]
        case .noPassword: arguments += ["--username", "bridge"]
        }
        let discover = try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: arguments,
                                        directory: world.directory.path, name: "discover", environment: ["PATH": "/usr/bin:/bin"])
        #expect(discover.waitForExit(timeoutSeconds: 30) == 1)
        let sentence = Self.expected(login, world: world, username: "--username", passwordFile: "--password-file",
                                     place: "to discover", verb: "give")
        #expect(discover.stderr.contains("discover: " + sentence), "\(discover.stderr)")
        #expect(!discover.stderr.contains(Self.wrongPassword), "\(discover.stderr)")
    }
}
