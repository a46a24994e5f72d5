import BridgeCore
@testable import BridgeDaemon
import CommandLineParsing
import Foundation
import Testing

/// What `packaging/` ships stays in step with the code: one version (the Swift constant,
/// the changelog, what `build-deb` reads), man pages naming every command, option and
/// config key, a bash completion naming every command, a starting config that passes
/// `check`, the unit's start condition, and maintainer scripts that parse.
/// (`packaging/test-install` builds, installs, upgrades and purges the real package.)
@Suite("Packaging")
struct PackagingTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// The commands `--help` lists (CommandHelpTests holds the binary's to this list).
    static var helpCommands: [String] { CommandOptionsTests.commands.map { $0.name } }

    /// Every option of every command, by each of its names (`--config`, `-c`), with `--help`, `-h` and `--version`.
    static var helpOptions: [String] {
        let names = CommandOptionsTests.commands.flatMap { command in command.options.flatMap(\.names) }
        return Array(Set(names + CommandOption.help.names + ["--version"])).sorted()
    }

    @Test func helpListsCommands() {
        #expect(Self.helpCommands.contains("run"))
        #expect(Self.helpCommands.contains("check"))
        #expect(Self.helpOptions.contains("--config"))
    }

    @Test func changelogStartsWithTheCodesVersion() throws {
        let firstLine = try Self.text("packaging/changelog").split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasPrefix("switchboard-bridge (\(BridgeVersion.number)) "),
                "packaging/changelog starts '\(firstLine)': add an entry for \(BridgeVersion.number)")
        #expect(UsageText.version == "switchboard-bridge \(BridgeVersion.number)")
    }

    /// `packaging/build-deb` reads the version with a pattern for exactly this line.
    @Test func versionLineIsTheOneBuildDebReads() throws {
        let source = try Self.text("Sources/BridgeDaemon/CLI/BridgeVersion.swift")
        let line = "    public static let number = \"\(BridgeVersion.number)\""
        #expect(source.split(separator: "\n").filter { $0.contains("static let number") }.map(String.init) == [line])
    }

    @Test func manPageDocumentsEveryCommand() throws {
        let page = try Self.text("packaging/man/switchboard-bridge.1").split(separator: "\n").map(String.init)
        for command in Self.helpCommands {
            let documented = page.contains(".B \(command)")
            #expect(documented,
                    "'--help' lists '\(command)': document it in packaging/man/switchboard-bridge.1 (a '.TP' then '.B \(command)' under COMMANDS, and the SYNOPSIS)")
        }
    }

    @Test func manPageDocumentsEveryOption() throws {
        let page = try Self.text("packaging/man/switchboard-bridge.1")
        for option in Self.helpOptions {
            let roff = option.replacingOccurrences(of: "-", with: "\\-")
            let documented = page.contains(roff)
            #expect(documented,
                    "'--help' names \(option): document it under OPTIONS in packaging/man/switchboard-bridge.1 (written \(roff))")
        }
    }

    /// The man page's SYNOPSIS of each command (`.SY switchboard-bridge`, `.B check`, ... `.YS`)
    /// names exactly the options the command declares, which its `--help` lists.
    @Test(arguments: CommandOptionsTests.commands.map { $0.name })
    func manPageSynopsisListsTheCommandsOptions(command: String) throws {
        let declared = try #require(CommandOptionsTests.commands.first { $0.name == command })
        let lines = try Self.text("packaging/man/switchboard-bridge.1").split(separator: "\n").map(String.init)
        let blocks = lines.split(separator: ".YS").map { Array($0.drop { $0 != ".SY switchboard-bridge" }) }
        let block = try #require(blocks.first { $0.count > 1 && $0[1] == ".B \(command)" },
                                 "packaging/man/switchboard-bridge.1: no SYNOPSIS entry '.SY switchboard-bridge' '.B \(command)'")
        let named = Set(block.joined(separator: " ").replacingOccurrences(of: "\\-", with: "-")
            .split(whereSeparator: { !($0.isLetter || $0 == "-") }).filter { $0.hasPrefix("--") }.map(String.init))
        let options = Set(declared.options.map(\.name))
        #expect(named == options, """
            packaging/man/switchboard-bridge.1's SYNOPSIS of \(command): add \(options.subtracting(named).sorted()), \
            remove \(named.subtracting(options).sorted()) ('switchboard-bridge \(command) --help' lists \(options.sorted()))
            """)
    }

    /// The bash completion offers each command the options it declares, and `--help`.
    @Test func bashCompletionOffersEachCommandItsOptions() throws {
        let completion = try Self.text("packaging/bash-completion").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func words(_ line: String) -> [String] {
            line.split(separator: "'", omittingEmptySubsequences: false).dropFirst().first.map { $0.split(separator: " ").map(String.init) } ?? []
        }
        let common = words(completion.first { $0.hasPrefix("local options=") } ?? "")
        for command in CommandOptionsTests.commands {
            // `name) options+=' ...' ;;` adds to the common options, `name) options='...' ;;` replaces them; no line, the common ones.
            let line = completion.first { $0.hasPrefix("\(command.name))") }
            let offered = Set((line?.contains("options+=") ?? true ? common : []) + words(line ?? ""))
            let expected = Set(command.options.map(\.name) + [CommandOption.help.name])
            #expect(offered == expected, "packaging/bash-completion: '\(command.name)) options...' should offer \(expected.sorted())")
        }
    }

    static let configKeys = Array(Set(
        ConfigKeys.topLevel + ConfigKeys.aivi + ConfigKeys.mqtt + ConfigKeys.mqttTLS + ConfigKeys.status
            + ConfigKeys.timing + ConfigKeys.widget + ConfigKeys.message + ConfigKeys.action)).sorted()

    @Test(arguments: configKeys)
    func configManPageDocumentsKey(key: String) throws {
        let macroLines = try Self.text("packaging/man/switchboard-bridge.yaml.5").split(separator: "\n")
            .filter { $0.hasPrefix(".") }
        let documented = macroLines.contains { line in
            line.split(whereSeparator: { " \",{}:".contains($0) }).contains { $0 == Substring(key) }
        }
        #expect(documented, "config key '\(key)': document it in packaging/man/switchboard-bridge.yaml.5 (e.g. '.TP' then '.B \(key)')")
    }

    @Test func bashCompletionOffersEveryCommand() throws {
        let completion = try Self.text("packaging/bash-completion")
        let line = completion.split(separator: "\n").first { $0.contains("local commands=") } ?? ""
        let offered = line.split(separator: "'").dropFirst().first.map { $0.split(separator: " ").map(String.init) } ?? []
        for command in Self.helpCommands where !["help", "version"].contains(command) {
            #expect(offered.contains(command), "add '\(command)' to 'local commands=' in packaging/bash-completion")
        }
    }

    @Test func startingConfigLoadsWithoutDiagnostics() throws {
        let result = ConfigLoader.load(text: try Self.text("packaging/bridge.yaml"), fileName: "bridge.yaml")
        #expect(result.config != nil)
        #expect(result.diagnostics.isEmpty, "\(result.rendered())")
    }

    @Test func startingConfigPassesCheckOnceATokenExists() throws {
        let credentials = NSTemporaryDirectory() + "sb-pkg-cred-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: credentials) }
        // Hermetic (issue 13): the token file and the state directory are this
        // test's own, whatever the machine has in /etc or /var/lib.
        let path = credentials + "/bridge.yaml"
        try (Self.text("packaging/bridge.yaml")
            .replacingOccurrences(of: "/etc/switchboard-bridge/aivi-token", with: credentials + "/machine-token")
            + "\nstate_dir: \(credentials)/state\n").write(toFile: path, atomically: true, encoding: .utf8)

        let without = CheckCommand.run(configPath: path, environment: ["CREDENTIALS_DIRECTORY": credentials])
        try "token\n".write(toFile: credentials + "/aivi-token", atomically: true, encoding: .utf8)
        let with = CheckCommand.run(configPath: path, environment: ["CREDENTIALS_DIRECTORY": credentials])

        #expect(with.status == 0, "\(with.output)")
        #expect(with.output.contains("config ok:"))
        #expect(without.status == 1 && without.output.contains("API token"), "\(without.output)")
    }

    /// The credential file is optional (a config may name token_file or token_env): no
    /// condition on it, a SetCredential= fallback for the same id, and a missing token is
    /// exit 78, which the unit does not restart. `packaging/test-unit-start` runs all three
    /// cases under a real systemd.
    @Test func unitStartsWithoutTheCredentialFileAndDoesNotLoopWithoutAToken() throws {
        let lines = try Self.text("systemd/switchboard-bridge.service").split(separator: "\n").map(String.init)
        #expect(!lines.contains { $0.hasPrefix("ConditionPathExists=") })
        #expect(lines.contains("LoadCredential=aivi-token:/etc/switchboard-bridge/aivi-token"))
        #expect(lines.contains("SetCredential=aivi-token:\\n"))
        #expect(lines.contains("RestartPreventExitStatus=\(DaemonStartError.configurationExitStatus)"))
        #expect(DaemonStartError.token("x").exitStatus == DaemonStartError.configurationExitStatus)
    }

    /// `build-deb` points the unit at /usr/bin by rewriting exactly this line.
    @Test func unitHasTheExecStartBuildDebRewrites() throws {
        let lines = try Self.text("systemd/switchboard-bridge.service").split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("ExecStart=/usr/local/bin/switchboard-bridge ") }.count == 1)
    }

    @Test(arguments: ["postinst", "prerm", "postrm"])
    func maintainerScriptParses(name: String) throws {
        let path = Self.packageRoot.appendingPathComponent("packaging/\(name)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-n", path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sh -n \(path)")
        #expect(access(path, X_OK) == 0, "\(path) must be executable")
        #expect(try Self.text("packaging/\(name)").hasPrefix("#!/bin/sh\n"))
    }
}
