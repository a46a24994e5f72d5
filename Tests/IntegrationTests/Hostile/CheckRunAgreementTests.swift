import Foundation
import Testing
import TestSupport

/// Review session 3 (F-checkurl, F-maxpayload, F-tls's `repeat_safe`, a token
/// with controls), against the real binary: what `check` refuses, on its line,
/// `run` refuses at start with exit 78 (EX_CONFIG), instead of retrying for ever.
@Suite("check and run refuse the same (real binary)")
struct CheckRunAgreementTests {
    static let refused: [(aivi: String, mqtt: String, action: String, message: String)] = [
        ("  api: http://127.0.0.1:99999", "", "", "'api' in 'aivi' has port 99999"),
        ("  api: http://[::1:57293", "", "", "'api' in 'aivi' must be http(s)://HOST[:PORT][/PATH]"),
        ("  api: \"http://127.0.0.1:57293/a b\"", "", "", "'api' in 'aivi' must not contain a space"),
        ("  api: http://127.0.0.1:57293?x=1", "", "", "'api' in 'aivi' must not have a '?query' or '#fragment'"),
        ("  api: \"http://127.0.0.1:57293#frag\"", "", "", "'api' in 'aivi' must not have a '?query' or '#fragment'"),
        ("  events_path: \"/ev\\r\\nX-A: b\"", "", "", "'events_path' in 'aivi' must not contain a control character"),
        ("", "  host: 256.1.1.1", "", "'host' in 'mqtt' must be an IPv4 address"),
        ("", "  host: \"127.0.0.1 \"", "", "'host' in 'mqtt' must be a host name or IP address without a space"),
        ("", "  max_payload_bytes: 16777216", "", "'max_payload_bytes' in 'mqtt' must be at most 8388608"),
        ("", "", "repeat_safe: ~", "'repeat_safe' in action 'feed' has no value: write true or false"),
    ]

    static func config(aivi: String, mqtt: String, action: String, directory: TemporaryDirectory) -> String {
        """
        aivi:
          token_env: SB_TOKEN
        \(aivi)
        mqtt:
          port: 9
        \(mqtt)
        state_dir: \(directory.file("state"))
        widgets:
          - slug: w
            actions:
              - id: feed
                label: Feed
                publish: {topic: pets/feed, payload: go}
                \(action)
        """
    }

    @Test(arguments: 0..<refused.count)
    func checkRefusesOnTheLineAndRunExits78(index: Int) throws {
        let (aivi, mqtt, action, message) = Self.refused[index]
        let directory = try TemporaryDirectory(prefix: "agree")
        defer { directory.remove() }
        let configPath = directory.file("bridge.yaml")
        try Self.config(aivi: aivi, mqtt: mqtt, action: action, directory: directory)
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        let marker = try #require([aivi, mqtt, action].first { !$0.isEmpty }).trimmingCharacters(in: .whitespaces)
        let lines = try String(contentsOfFile: configPath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == marker }) + 1
        for command in ["check", "run"] {
            let (status, output) = try Self.launch(command, configPath: configPath, directory: directory, token: "t")
            #expect(status == (command == "run" ? 78 : 1), "\(command): \(output)")
            #expect(output.contains("bridge.yaml:\(line):"), "\(command) names line \(line): \(output)")
            #expect(output.contains(message), "\(command): \(output)")
        }
    }

    @Test(arguments: ["tok\r\nX-Evil: 1", "tok\u{1B}[2Jen"])
    func aTokenWithControlCharactersIsRefusedByCheckAndAtStartWithoutEchoingIt(token: String) throws {
        let directory = try TemporaryDirectory(prefix: "agree-token")
        defer { directory.remove() }
        let configPath = directory.file("bridge.yaml")
        try Self.config(aivi: "", mqtt: "", action: "", directory: directory).write(toFile: configPath, atomically: true, encoding: .utf8)
        for command in ["check", "run"] {
            let (status, output) = try Self.launch(command, configPath: configPath, directory: directory, token: token)
            #expect(status == (command == "run" ? 78 : 1), "\(command): \(output)")
            #expect(output.contains("contains a control character"), "\(command): \(output)")
            #expect(!output.contains("X-Evil") && !output.contains("[2J"), "\(command) echoed the token: \(output)")
        }
    }

    /// Issue 19, item 12: a token file with a byte order mark, a zero-width space or a
    /// space inside passed `check` and every request then got 401. Both refuse it now,
    /// naming what is wrong and never the token.
    @Test(arguments: [("\u{FEFF}zq7-Kp9\n", "a byte order mark"), ("zq7-\u{200B}Kp9\n", "an invisible character (U+200B)"),
                      ("zq7 Kp9\n", "a space inside it")])
    func aTokenFileWithAnInvisibleCharacterOrInnerSpaceIsRefusedByCheckAndRun(contents: String, said: String) throws {
        let directory = try TemporaryDirectory(prefix: "agree-token-file")
        defer { directory.remove() }
        let tokenPath = directory.file("token")
        try contents.write(toFile: tokenPath, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenPath)
        let configPath = directory.file("bridge.yaml")
        try Self.config(aivi: "", mqtt: "", action: "", directory: directory)
            .replacingOccurrences(of: "token_env: SB_TOKEN", with: "token_file: \(tokenPath)")
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        for command in ["check", "run"] {
            let (status, output) = try Self.launch(command, configPath: configPath, directory: directory, token: "unused")
            #expect(status == (command == "run" ? 78 : 1), "\(command): \(output)")
            #expect(output.contains("the API token in token file \(tokenPath) contains \(said)"), "\(command): \(output)")
            #expect(!output.contains("zq7") && !output.contains("Kp9"), "\(command) showed the token: \(output)")
        }
    }

    static func launch(_ command: String, configPath: String, directory: TemporaryDirectory, token: String) throws -> (Int32, String) {
        let process = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable, arguments: [command, "--config", configPath],
            directory: directory.path, name: "\(command)-\(UUID().uuidString)",
            environment: ["SB_TOKEN": token, "PATH": "/usr/bin:/bin"])
        defer { process.stop() }
        let status = process.waitForExit(timeoutSeconds: 20) ?? -1
        return (status, process.stdout + process.stderr)
    }
}
