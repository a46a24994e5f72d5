/// The text of a command's `--help`, made from its declarations (`ParsableCommand.name`,
/// `abstract`, `options`, `discussion`), so the help cannot miss an option.
public enum HelpText {
    /// The width the help's lines are wrapped to.
    public static let columns = 80

    /// `switchboard-bridge check`, or `aivi-sim` for a program that is one command.
    public static func invocation(program: String, command: String) -> String {
        command.isEmpty ? program : "\(program) \(command)"
    }

    /// `PROGRAM COMMAND --help`: what it does, its usage line and every option with its help.
    public static func help(for command: any ParsableCommand.Type, program: String) -> String {
        let options = command.options + [CommandOption.help]
        let labels = options.map(label)
        let width = (labels.map(\.count).max() ?? 0) + 2
        let lines = zip(labels, options).map { label, option in
            wrapped(option.help, first: "  " + padded(label, to: width), indent: 2 + width)
        }
        let discussion = command.discussion.isEmpty ? [] : ["", command.discussion]
        return ([
            wrapped(command.abstract, first: "\(invocation(program: program, command: command.name)): ", indent: 2), "",
            usage(command, program: program), "",
            "Options:",
        ] + lines + discussion).joined(separator: "\n")
    }

    /// `Usage: switchboard-bridge check [--config PATH] [--mqtt] [--seconds N]`, wrapped.
    public static func usage(_ command: any ParsableCommand.Type, program: String) -> String {
        let lead = "Usage: \(invocation(program: program, command: command.name)) "
        return wrapped(command.options.map(synopsis), first: lead, indent: lead.count)
    }

    /// `[--config PATH]`, `[--json]`, `[--state ID=on|off ...]`; a required option unbracketed
    /// (`--token TOKEN`, `--widget SLUG ...`).
    public static func synopsis(_ option: CommandOption) -> String {
        let words: String
        switch option.value {
        case .none: words = option.name
        case .text(let name), .number(let name, _): words = "\(option.name) \(name)"
        case .repeated(let name): words = "\(option.name) \(name) ..."
        }
        return option.isRequired ? words : "[\(words)]"
    }

    /// `--config PATH, -c PATH`.
    public static func label(_ option: CommandOption) -> String {
        option.names.map { name in option.valueName.map { "\(name) \($0)" } ?? name }.joined(separator: ", ")
    }

    /// `text` padded with spaces to `width` (at least one space).
    public static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }

    /// `text` after `first`, its words wrapped to `columns`, following lines indented by `indent`.
    public static func wrapped(_ text: String, first: String, indent: Int) -> String {
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
