/// One option of a command, declared once: the parser reads the command line with it,
/// the command's `--help` lists it, and PackagingTests holds the man page and the bash
/// completion to the same list.
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

    public init(_ name: String, short shortName: String? = nil, _ value: Value = .none, help: String) {
        self.name = name
        self.shortName = shortName
        self.value = value
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
    var names: [String] { [name] + (shortName.map { [$0] } ?? []) }

    /// `--config`, the path of the config file, which most commands take.
    public static let config = CommandOption("--config", short: "-c", .text("PATH"),
                                             help: "the config file (default \(UsageText.defaultConfigPath))")

    /// `--help`, which every command takes (the parser answers it before the command's own options).
    public static let help = CommandOption("--help", short: "-h", help: "show this help")
}
