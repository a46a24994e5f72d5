import Foundation
import Glibc
import Testing
import TestSupport

/// Issue 19, item 18: `sudo switchboard-bridge check` passed a 0600 root config
/// and a 0600 password file, which the unit's throw-away user (DynamicUser=yes)
/// cannot read: the service then stopped at start with 78. Run as root (as the
/// tests are), check now says what that user could not read, and the fix.
@Suite("check as root says what the unit's user could not read (real binary)")
struct CheckAsTheUnitsUserTests {
    @Test(arguments: [(mode_t(0o600), mode_t(0o600)), (mode_t(0o644), mode_t(0o600)), (mode_t(0o644), mode_t(0o644))])
    func saysWhatTheServiceCouldNotRead(configMode: mode_t, passwordMode: mode_t) throws {
        try #require(geteuid() == 0, "the case is root's")
        let directory = try TemporaryDirectory(prefix: "unit-user")
        defer { directory.remove() }
        let password = directory.file("mqtt-password"), config = directory.file("bridge.yaml")
        try "pw-9Zk\n".write(toFile: password, atomically: true, encoding: .utf8)
        try FileCheckRun.config(aivi: ["token_env: SB_UNIT_TOKEN"], mqtt: ["username: bridge", "password_file: \(password)"],
                                stateDir: directory.file("state"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        #expect(chmod(config, configMode) == 0 && chmod(password, passwordMode) == 0)
        let (check, status) = try FileCheckRun.check(config: config,
                                                     directory: directory.path, environment: ["SB_UNIT_TOKEN": "t", "PATH": "/usr/bin:/bin"])
        #expect(status == 0, "warnings, not errors: \(check.stderr)")
        let configWarning = "DynamicUser=yes), not root, and it cannot read the config file \(config) (mode 0600, owner root)"
        let passwordWarning = "cannot read the MQTT password file \(password) (mode 0600, owner root): the service would stop at "
            + "start (exit 78); hand it over as a credential: `sudo systemctl edit switchboard-bridge`, add "
            + "LoadCredential=mqtt-password:\(password)"
        #expect(check.stderr.contains(configWarning) == (configMode == 0o600), "\(check.stderr)")
        #expect(check.stderr.contains(passwordWarning) == (passwordMode == 0o600), "\(check.stderr)")
        #expect(!check.stderr.contains("pw-9Zk"))
    }
}
