import Foundation
import Testing
import TestSupport

/// Issue 19, item 11, against the real binary: whoever can write the token file
/// can point the house at another account, whoever can write the config or the
/// MQTT password file chooses what the bridge does. `check` and `run` both warn
/// when one of them, or the directory holding it, is writable by its group or by
/// everyone (a directory with the sticky bit excepted); 0600 files in a 0755
/// directory get no warning.
@Suite("Files writable by others: check and run warn (real binary)", .serialized)
struct WritableFileWarningTests {
    enum Loosened: String, CaseIterable { case none, tokenFile, passwordFile, configFile, directory, stickyDirectory }

    @Test(arguments: Loosened.allCases)
    func checkAndRunWarnTheSame(loosened: Loosened) throws {
        let root = try TemporaryDirectory(prefix: "writable-\(loosened.rawValue)")
        defer { root.remove() }
        let directory = root.file("etc")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let directoryMode: mode_t = switch loosened {
        case .directory: 0o775
        case .stickyDirectory: 0o1777
        default: 0o755
        }
        #expect(chmod(directory, directoryMode) == 0)
        let token = directory + "/aivi-token", password = directory + "/mqtt-password", config = directory + "/bridge.yaml"
        try "tok-7Qx\n".write(toFile: token, atomically: true, encoding: .utf8)
        try "pw-7Qx\n".write(toFile: password, atomically: true, encoding: .utf8)
        try FileCheckRun.config(aivi: ["api: http://127.0.0.1:9/", "token_file: \(token)"],
                                mqtt: FileCheckRun.unreachableBroker(passwordFile: password), stateDir: root.file("state"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        #expect(chmod(token, loosened == .tokenFile ? 0o620 : 0o600) == 0)
        #expect(chmod(password, loosened == .passwordFile ? 0o602 : 0o600) == 0)
        #expect(chmod(config, loosened == .configFile ? 0o666 : 0o644) == 0)

        let environment = ["PATH": "/usr/bin:/bin"]
        let bridge = try FileCheckRun.runUntilStarted(config: config,
                                                      directory: root.path, environment: environment)
        let (check, checkStatus) = try FileCheckRun.check(config: config,
                                                          directory: root.path, environment: environment)
        #expect(checkStatus == 0, "a warning, not an error: \(check.stderr)")

        let expected: [String] = switch loosened {
        case .none, .stickyDirectory: []
        case .tokenFile: ["token file \(token) is writable by its group (mode 0620): another user could rewrite it "
                          + "(and point the bridge at another account); run: chmod go-w \(token)"]
        case .passwordFile: ["MQTT password file \(password) is writable by every user (mode 0602)"]
        case .configFile: ["config file \(config) is writable by every user (mode 0666)"]
        case .directory: [token, password, config].map { _ in "the directory \(directory) of the " }
            + ["\(directory) of the token file is writable by its group (mode 0775): another user could replace the token file in it",
               "\(directory) of the MQTT password file", "\(directory) of the config file"]
        }
        let runWarnings = bridge.stderr.split(separator: "\n").filter { $0.contains(" is writable by ") }
        let checkWarnings = check.stderr.split(separator: "\n").filter { $0.contains(" is writable by ") }
        #expect(runWarnings.count == (loosened == .directory ? 3 : expected.count), "\(bridge.stderr)")
        #expect(checkWarnings.count == runWarnings.count, "check and run say the same: \(check.stderr)")
        for text in expected {
            #expect(bridge.stderr.contains(text), "run: \(text) in \(bridge.stderr)")
            #expect(check.stderr.contains(text), "check: \(text) in \(check.stderr)")
        }
        #expect(!(bridge.stderr + check.stderr).contains("7Qx"), "no secret shown")
    }
}
