/// A command line that could not be understood: said with the command, the option and
/// the fix (`message(program:)`), and the process exits `exitStatus`. `command` is the
/// command's name, empty for a program that is one command (`aivi-sim`).
public enum CommandLineError: Error, Equatable {
    /// A first word that is no command, with the nearest command's name when one is close.
    case unknownCommand(String, suggestion: String?)
    /// An option before any command (`--config x run`).
    case optionBeforeCommand(String)
    /// An option the command does not take: the commands that do, and a near miss among its own.
    case unknownOption(command: String, option: String, owners: [String], suggestion: String?)
    /// A word that is no option where only options go (`check bridge.yaml`).
    case unexpectedArgument(command: String, String)
    case missingValue(command: String, option: String, valueName: String)
    /// A required option not given (`aivi-sim` without `--token`).
    case missingOption(command: String, option: String, valueName: String?)
    /// A number that is not one, or outside the option's range.
    case badNumber(command: String, option: String, value: String, range: ClosedRange<Int>)
    /// A flag given a value (`--json=yes`).
    case flagTakesNoValue(command: String, option: String)
    /// An option's value refused with why and the fix (`--mqtt-host 127.0.0.010`).
    case refusedValue(command: String, option: String, value: String, because: String)
    /// An option this command takes only beside another.
    case onlyWith(command: String, option: String, other: String)

    /// The status a program exits with when it does not understand its command line.
    public static let exitStatus: Int32 = 2

    /// The refusal in words, `program` being the program's name (`switchboard-bridge`), for
    /// the "see ... --help" and the commands' names.
    public func message(program: String) -> String {
        switch self {
        case .unknownCommand(let name, let suggestion):
            let hint = suggestion.map { ": did you mean '\($0)'?" } ?? ""
            return "unknown command '\(name)'\(hint) (see \(program) --help)"
        case .optionBeforeCommand(let option):
            return "\(option) goes after a command, as in '\(program) run \(option) ...' (see \(program) --help)"
        case .unknownOption(let command, let option, let owners, let suggestion):
            var text = command.isEmpty ? "unknown option \(option)" : "\(command) does not take \(option)"
            if !owners.isEmpty { text += ": it is an option of \(Self.listed(owners))" }
            if let suggestion { text += owners.isEmpty ? ": did you mean \(suggestion)?" : "; did you mean \(suggestion)?" }
            return text + Self.seeHelp(program, command)
        case .unexpectedArgument(let command, let word):
            let text = command.isEmpty ? "'\(word)' is not an option" : "\(command) takes options only, not '\(word)'"
            return text + Self.seeHelp(program, command)
        case .missingValue(let command, let option, let valueName):
            return Self.lead(command) + "option \(option) needs a value (\(valueName))" + Self.seeHelp(program, command)
        case .missingOption(let command, let option, let valueName):
            return Self.lead(command) + "\(option)\(valueName.map { " \($0)" } ?? "") is required" + Self.seeHelp(program, command)
        case .badNumber(let command, let option, let value, let range):
            return Self.lead(command) + "option \(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'"
        case .flagTakesNoValue(let command, let option):
            return Self.lead(command) + "option \(option) takes no value" + Self.seeHelp(program, command)
        case .refusedValue(let command, let option, let value, let why):
            return Self.lead(command) + "option \(option): '\(value)' \(why)"
        case .onlyWith(let command, let option, let other):
            let text = command.isEmpty ? "\(option) goes only with \(other)" : "\(command) takes \(option) only with \(other)"
            return text + Self.seeHelp(program, command)
        }
    }

    /// `check: `, nothing for a program that is one command (the program's name leads the
    /// line it is said on, `aivi-sim: ...`).
    private static func lead(_ command: String) -> String { command.isEmpty ? "" : "\(command): " }

    private static func seeHelp(_ program: String, _ command: String) -> String {
        " (see \(HelpText.invocation(program: program, command: command)) --help)"
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func listed(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}
