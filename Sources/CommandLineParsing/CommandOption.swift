/// One option of a command, declared once: the parser (`CommandLineArguments`) reads the
/// command line with it, the command's `--help` (`HelpText`) lists it, and the daemon's
/// PackagingTests hold its man page and bash completion to the same list.
public struct CommandOption: Sendable, Equatable {
    /// What follows the option's name on the command line.
    public enum Value: Sendable, Equatable {
        /// Nothing: a flag (`--json`).
        case none
        /// One word, named in the help (`--config PATH`); given twice, the last one counts.
        case text(String)
        /// A whole number within a range (`--seconds N`); anything else is refused, naming the range.
        case number(String, ClosedRange<Int>)
        /// One word each time the option is given, all kept (`--state ID=on|off ...`).
        case repeated(String)
    }

    /// The long name, with its dashes (`--config`).
    public let name: String
    /// The one-letter name, with its dash (`-c`), if there is one.
    public let shortName: String?
    public let value: Value
    /// What the option does, with its default; one sentence, wrapped by `--help`.
    public let help: String
    /// A command line without it is refused (`aivi-sim --token`); the usage shows it unbracketed.
    public let isRequired: Bool

    public init(_ name: String, short shortName: String? = nil, _ value: Value = .none, isRequired: Bool = false, help: String) {
        self.name = name
        self.shortName = shortName
        self.value = value
        self.isRequired = isRequired
        self.help = help
    }

    /// The word naming the option's value in the help (`PATH`), nil for a flag.
    public var valueName: String? {
        switch value {
        case .none: return nil
        case .text(let name), .number(let name, _), .repeated(let name): return name
        }
    }

    /// The option's names, long first.
    public var names: [String] { [name] + (shortName.map { [$0] } ?? []) }

    /// `--help`, which every command takes (the parser answers it before the command's own options).
    public static let help = CommandOption("--help", short: "-h", help: "show this help")
}
