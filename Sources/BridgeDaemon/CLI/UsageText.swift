import CommandLineParsing

/// The text of `--help` and `--version`, made from the commands' declarations
/// (`BridgeCommand.name`, `abstract`, `options`), so the help cannot miss an option; a
/// command's own help is `HelpText`'s, as for every program of the package.
public enum UsageText {
    public static let programName = "switchboard-bridge"
    public static let version = "\(programName) \(BridgeVersion.number)"
    public static let summary = "MQTT lights, plugs and scenes as Switchboard tiles on Aivi."
    public static let defaultConfigPath = "/etc/switchboard-bridge/bridge.yaml"

    /// `switchboard-bridge --help`: the commands, each with its line.
    public static func help(commands: [any BridgeCommand.Type]) -> String {
        let width = (commands.map { $0.name.count }.max() ?? 0) + 2
        let list = commands.map { command in
            HelpText.wrapped(command.abstract, first: "  " + HelpText.padded(command.name, to: width), indent: 2 + width)
        }
        return ([
            "\(programName): \(summary)", "",
            "Usage: \(programName) COMMAND [OPTIONS]", "",
            "Commands:",
        ] + list + [
            "",
            "  \(programName) COMMAND --help   the command's options",
            "  \(programName) --version        the version",
        ]).joined(separator: "\n")
    }

    /// `switchboard-bridge COMMAND --help`: its usage line and every option with its help.
    public static func help(for command: any BridgeCommand.Type) -> String {
        HelpText.help(for: command, program: programName)
    }
}
