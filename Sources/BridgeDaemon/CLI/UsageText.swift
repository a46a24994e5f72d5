/// The text of `--help` and `--version`, made from the commands' declarations
/// (`BridgeCommand.name`, `abstract`, `options`), so the help cannot miss an option.
public enum UsageText {
    public static let programName = "switchboard-bridge"
    public static let version = "\(programName) \(BridgeVersion.number)"
    public static let summary = "MQTT lights, plugs and scenes as Switchboard tiles on Aivi."
    public static let defaultConfigPath = "/etc/switchboard-bridge/bridge.yaml"
    /// The width the help's lines are wrapped to.
    static let columns = 80

    /// `switchboard-bridge --help`: the commands, each with its line.
    public static func help(commands: [any BridgeCommand.Type]) -> String {
        let width = (commands.map { $0.name.count }.max() ?? 0) + 2
        let list = commands.map { command in
            wrapped(command.abstract, first: "  " + padded(command.name, to: width), indent: 2 + width)
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
        let options = command.options + [CommandOption.help]
        let labels = options.map(label)
        let width = (labels.map(\.count).max() ?? 0) + 2
        let lines = zip(labels, options).map { label, option in
            wrapped(option.help, first: "  " + padded(label, to: width), indent: 2 + width)
        }
        return ([
            wrapped(command.abstract, first: "\(programName) \(command.name): ", indent: 2), "",
            usage(command), "",
            "Options:",
        ] + lines).joined(separator: "\n")
    }

    /// `Usage: switchboard-bridge check [--config PATH] [--mqtt] [--seconds N]`, wrapped.
    public static func usage(_ command: any BridgeCommand.Type) -> String {
        let lead = "Usage: \(programName) \(command.name) "
        return wrapped(command.options.map(synopsis), first: lead, indent: lead.count)
    }

    /// `[--config PATH]`, `[--json]`, `[--state ID=on|off ...]`.
    static func synopsis(_ option: CommandOption) -> String {
        switch option.value {
        case .none: return "[\(option.name)]"
        case .text(let name), .number(let name, _): return "[\(option.name) \(name)]"
        case .repeated(let name): return "[\(option.name) \(name) ...]"
        }
    }

    /// `--config PATH, -c PATH`.
    static func label(_ option: CommandOption) -> String {
        option.names.map { name in option.valueName.map { "\(name) \($0)" } ?? name }.joined(separator: ", ")
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }

    /// `text` after `first`, its words wrapped to `columns`, following lines indented by `indent`.
    private static func wrapped(_ text: String, first: String, indent: Int) -> String {
        wrapped(text.split(separator: " ").map(String.init), first: first, indent: indent)
    }

    /// `units` (words, or an option's `[--name VALUE]`, never broken) after `first`, wrapped.
    private static func wrapped(_ units: [String], first: String, indent: Int) -> String {
        var lines: [String] = []
        var line = first
        for (index, unit) in units.enumerated() {
            if index > 0, line.count + 1 + unit.count > columns {
                lines.append(line)
                line = String(repeating: " ", count: indent) + unit
            } else {
                line += (index > 0 ? " " : "") + unit
            }
        }
        return (lines + [line]).joined(separator: "\n")
    }
}
