import BridgeCore
import BridgeDaemon
import Foundation
import Testing
import TestSupport

/// Issue 19, item 8 (and 18's symbolic link at the id file), against the real
/// binary: a FIFO at any file the bridge reads or writes (the token file, the
/// systemd credential, the MQTT password file, both CA files, the record of
/// presses not safe to repeat, the state directory's lock) hung `check` or `run` in a blocking `open` (694 s
/// with SIGTERM ignored). Now both exit at once with a clear error naming the
/// file; `run` with 78 (EX_CONFIG), so systemd does not restart it in a loop.
@Suite("FIFOs and links at the bridge's files (real binary)")
struct UnusableFileTests {
    /// A hang detector: both commands exit in well under a second.
    static let exitDeadlineSeconds = 20.0

    enum Planted: String, CaseIterable {
        case tokenFile, credential, passwordFile, aiviCAFile, mqttCAFile, idFile, idFileSymlink, lockFile
    }

    struct Layout {
        let directory: TemporaryDirectory
        var token: String { directory.file("token") }
        var credentials: String { directory.file("credentials") }
        var password: String { directory.file("password") }
        var aiviCA: String { directory.file("aivi-ca.pem") }
        var mqttCA: String { directory.file("mqtt-ca.pem") }
        var state: String { directory.file("state") }
        var idFile: String { state + "/" + UnsafeEventIdFile.name }

        func config() -> String {
            """
            aivi:
              api: https://127.0.0.1:9
              token_file: \(token)
              ca_file: \(aiviCA)
            mqtt:
              host: 127.0.0.1
              port: 9
              username: bridge
              password_file: \(password)
              tls: {ca_file: \(mqttCA)}
            state_dir: \(state)
            widgets:
              - slug: w
                actions:
                  - id: feed
                    label: Feed
                    publish: {topic: pets/feed, payload: go}
                    repeat_safe: false
            """
        }
    }

    /// Writes every file as a regular one, then puts a FIFO (or a link) at `planted`.
    static func prepare(_ planted: Planted) throws -> Layout {
        let layout = Layout(directory: try TemporaryDirectory(prefix: "fifo-\(planted.rawValue)"))
        let manager = FileManager.default
        try manager.createDirectory(atPath: layout.credentials, withIntermediateDirectories: true)
        try manager.createDirectory(atPath: layout.state, withIntermediateDirectories: true,
                                    attributes: [.posixPermissions: 0o700])
        let certificates = try TestCertificates(directory: layout.directory)
        let regular: [(Planted, String, String)] = [
            (.tokenFile, layout.token, "token-in-file\n"), (.passwordFile, layout.password, "secret\n"),
            (.aiviCAFile, layout.aiviCA, try String(contentsOfFile: certificates.caFile, encoding: .utf8)),
            (.mqttCAFile, layout.mqttCA, try String(contentsOfFile: certificates.caFile, encoding: .utf8)),
        ]
        for (kind, path, text) in regular where kind != planted {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        }
        let fifoPath: String? = switch planted {
        case .tokenFile: layout.token
        case .credential: layout.credentials + "/aivi-token"
        case .passwordFile: layout.password
        case .aiviCAFile: layout.aiviCA
        case .mqttCAFile: layout.mqttCA
        case .idFile: layout.idFile
        case .lockFile: layout.state + "/" + StateDirectoryLock.fileName
        case .idFileSymlink: nil
        }
        if let fifoPath { #expect(mkfifo(fifoPath, 0o600) == 0) }
        if planted == .idFileSymlink {
            try "".write(toFile: layout.directory.file("elsewhere"), atomically: true, encoding: .utf8)
            try manager.createSymbolicLink(atPath: layout.idFile, withDestinationPath: layout.directory.file("elsewhere"))
        }
        try layout.config().write(toFile: layout.directory.file("bridge.yaml"), atomically: true, encoding: .utf8)
        return layout
    }

    @Test(arguments: Planted.allCases)
    func checkAndRunExitAtOnceWithAClearError(planted: Planted) throws {
        let layout = try Self.prepare(planted)
        defer { layout.directory.remove() }
        let expected = planted == .idFileSymlink ? "a symbolic link, not a regular file" : "a FIFO, not a regular file"
        let named = switch planted {
        case .tokenFile: layout.token
        case .credential: "systemd credential 'aivi-token'"
        case .passwordFile: layout.password
        case .aiviCAFile: layout.aiviCA
        case .mqttCAFile: layout.mqttCA
        case .idFile, .idFileSymlink: layout.idFile
        case .lockFile: layout.state + "/" + StateDirectoryLock.fileName
        }
        for command in ["check", "run"] {
            var environment = ["PATH": "/usr/bin:/bin"]
            if planted == .credential { environment["CREDENTIALS_DIRECTORY"] = layout.credentials }
            let process = try ChildProcess(
                executable: EndToEndHarness.bridgeExecutable,
                arguments: [command, "--config", layout.directory.file("bridge.yaml")],
                directory: layout.directory.path, name: "\(command)-\(UUID().uuidString)", environment: environment)
            let status = process.waitForExit(timeoutSeconds: Self.exitDeadlineSeconds)
            if status == nil { process.kill9() }
            let output = process.stdout + process.stderr
            #expect(status == (command == "run" ? 78 : 1), "\(planted) \(command): exit \(String(describing: status)): \(output)")
            #expect(output.contains(expected), "\(planted) \(command): \(output)")
            #expect(output.contains(named), "\(planted) \(command) names the file: \(output)")
            #expect(!output.contains("token-in-file") && !output.contains("secret\n"), "\(planted) \(command): \(output)")
        }
    }
}
