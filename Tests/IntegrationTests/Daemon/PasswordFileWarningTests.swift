import Foundation
import Testing
import TestSupport

/// Issue 12 (lower), secrets: `run` warns at start, as `check` does, when the MQTT
/// password file is readable by others (the real binary's log), never showing the
/// password; a 0600 file gets no warning.
@Suite("MQTT password file readable by others: the start warns (real binary)", .serialized)
struct PasswordFileWarningTests {
    static let password = "pw-never-logged-7Qx"

    @Test(arguments: [(mode_t(0o644), true), (mode_t(0o640), true), (mode_t(0o600), false)] as [(mode_t, Bool)])
    func theStartWarnsLikeCheck(mode: mode_t, expectWarning: Bool) throws {
        let directory = try TemporaryDirectory(prefix: "password-warning")
        defer { directory.remove() }
        let passwordPath = directory.file("mqtt-password")
        try (Self.password + "\n").write(toFile: passwordPath, atomically: true, encoding: .utf8)
        #expect(chmod(passwordPath, mode) == 0)
        let configPath = directory.file("bridge.yaml")
        try FileCheckRun.config(aivi: ["api: http://127.0.0.1:9/", "token_env: SB_PW_TOKEN"],
                                mqtt: FileCheckRun.unreachableBroker(passwordFile: passwordPath), stateDir: directory.file("state"))
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        let environment = ["SB_PW_TOKEN": "token", "PATH": "/usr/bin:/bin"]
        let bridge = try FileCheckRun.runUntilStarted(config: configPath,
                                                      directory: directory.path, environment: environment)
        let check = try FileCheckRun.check(config: configPath,
                                           directory: directory.path, environment: environment).process

        let expected = "password file \(passwordPath) is readable by other users (mode 0\(String(mode, radix: 8))); "
            + "run: chmod 600 \(passwordPath)"
        let runWarnings = bridge.stderr.split(separator: "\n").filter { $0.contains("readable by other users") }
        #expect(runWarnings.count == (expectWarning ? 1 : 0), "\(bridge.stderr)")
        #expect(runWarnings.allSatisfy { $0.hasSuffix("warning " + expected) }, "\(runWarnings)")
        #expect(check.stderr.contains(expected) == expectWarning, "check and run say the same: \(check.stderr)")
        #expect(!bridge.stderr.contains(Self.password) && !check.stderr.contains(Self.password))
    }
}
