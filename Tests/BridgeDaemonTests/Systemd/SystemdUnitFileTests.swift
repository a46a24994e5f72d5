import Glibc
import Testing

@testable import BridgeDaemon

/// `systemd/switchboard-bridge.service`: required directives, `systemd-analyze security`
/// exposure below 2.0, and `systemd-analyze verify`.
@Suite struct SystemdUnitFileTests {
    static let systemdAnalyze = "/usr/bin/systemd-analyze"
    static let hasSystemdAnalyze = access(systemdAnalyze, X_OK) == 0
    static let unitPath = SystemdTestFiles.repositoryRoot() + "/systemd/switchboard-bridge.service"

    static func unitLines() throws -> [String] {
        try SystemdTestFiles.read(unitPath).split(separator: "\n").map(String.init)
    }

    @Test(arguments: [
        "Type=notify",
        "ExecStart=/usr/local/bin/switchboard-bridge run --config /etc/switchboard-bridge/bridge.yaml",
        "ExecReload=/bin/kill -HUP $MAINPID",
        "Restart=on-failure",
        "Wants=network-online.target mosquitto.service time-sync.target",
        "After=network-online.target mosquitto.service time-sync.target",
        "LoadCredential=aivi-token:/etc/switchboard-bridge/aivi-token",
        "SetCredential=aivi-token:\\n",
        "RestartPreventExitStatus=78",
        "DynamicUser=yes",
        "StateDirectory=switchboard-bridge",
        "ConfigurationDirectory=switchboard-bridge",
        "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "WantedBy=multi-user.target",
    ])
    func unitHasDirective(line: String) throws {
        #expect(try Self.unitLines().contains(line))
    }

    @Test func unitSetsAWatchdog() throws {
        let watchdog = try Self.unitLines().first { $0.hasPrefix("WatchdogSec=") }
        #expect(watchdog != nil && watchdog != "WatchdogSec=" && watchdog != "WatchdogSec=0")
    }

    @Test(arguments: [
        ("→ Overall exposure level for switchboard-bridge.service: 1.2 OK 🙂", 1.2),
        ("\u{1B}[0;1;39m→ Overall exposure level for x.service: \u{1B}[0;1;32m9.6 UNSAFE\u{1B}[0m 😨", 9.6),
        ("nothing here", nil),
    ] as [(String, Double?)])
    func parsesTheOverallExposureLine(output: String, expected: Double?) {
        #expect(SystemdAnalyzeOutput.overallExposure(in: output) == expected)
    }

    @Test(.enabled(if: hasSystemdAnalyze, "systemd-analyze is not installed; skipping the security check"))
    func unitExposureIsBelowTwo() throws {
        let outcome = try SystemdTestProcess.run(Self.systemdAnalyze, ["security", "--offline=yes", Self.unitPath])

        let exposure = SystemdAnalyzeOutput.overallExposure(in: outcome.output)
        #expect(exposure != nil, "no 'Overall exposure level' line in:\n\(outcome.output)")
        #expect((exposure ?? 10) < 2.0, "systemd-analyze security says:\n\(outcome.output)")
    }

    /// Verifies a copy whose ExecStart points at an existing binary (`/bin/true`), since
    /// the daemon is not installed on the test machine; any line naming the unit fails.
    @Test(.enabled(if: hasSystemdAnalyze, "systemd-analyze is not installed; skipping unit verification"))
    func unitVerifies() throws {
        let directory = try SystemdTestDirectory()
        defer { directory.remove() }
        let unitText = try SystemdTestFiles.read(Self.unitPath)
        let runnable = unitText.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.hasPrefix("ExecStart=/usr/local/bin/switchboard-bridge ") { return "ExecStart=/bin/true run" }
            if line.hasPrefix("ExecReload=/usr/local/bin/switchboard-bridge ") { return "ExecReload=/bin/true check" }
            return String(line)
        }.joined(separator: "\n")
        let copyPath = try directory.writeFile("switchboard-bridge.service", runnable, mode: 0o644)

        let outcome = try SystemdTestProcess.run(Self.systemdAnalyze, ["verify", copyPath])

        let complaints = outcome.output.split(separator: "\n").filter { $0.contains("switchboard-bridge") }
        #expect(complaints.isEmpty, "systemd-analyze verify:\n\(outcome.output)")
        #expect(outcome.exitStatus == 0, "systemd-analyze verify:\n\(outcome.output)")
    }
}

/// Reads `systemd-analyze` output.
enum SystemdAnalyzeOutput {
    /// The number on the "Overall exposure level for X: 1.2 OK" line, colours ignored.
    static func overallExposure(in output: String) -> Double? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains("Overall exposure level") }) else {
            return nil
        }
        let plain = withoutEscapeSequences(String(line))
        guard let colon = plain.lastIndex(of: ":") else { return nil }
        let number = plain[plain.index(after: colon)...].drop(while: { $0 == " " }).prefix(while: { $0.isNumber || $0 == "." })
        return Double(String(number))
    }

    /// Removes ANSI `ESC [ ... m` sequences.
    static func withoutEscapeSequences(_ text: String) -> String {
        var result = ""
        var insideEscape = false
        for character in text {
            if character == "\u{1B}" {
                insideEscape = true
            } else if insideEscape {
                if character.isLetter { insideEscape = false }
            } else {
                result.append(character)
            }
        }
        return result
    }
}
