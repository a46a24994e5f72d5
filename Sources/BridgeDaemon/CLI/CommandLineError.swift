/// A command line that could not be understood: said with the command, the option and
/// the fix, and the process exits 2.
public enum CommandLineError: Error, Equatable, CustomStringConvertible {
    /// A first word that is no command, with the nearest command's name when one is close.
    case unknownCommand(String, suggestion: String?)
    /// An option before any command (`--config x run`).
    case optionBeforeCommand(String)
    /// An option the command does not take: the commands that do, and a near miss among its own.
    case unknownOption(command: String, option: String, owners: [String], suggestion: String?)
    /// A word that is no option where only options go (`check bridge.yaml`).
    case unexpectedArgument(command: String, String)
    case missingValue(command: String, option: String, valueName: String)
    /// A number that is not one, or outside the option's range.
    case badNumber(command: String, option: String, value: String, range: ClosedRange<Int>)
    /// A flag given a value (`--json=yes`).
    case flagTakesNoValue(command: String, option: String)
    /// An option's value refused with why and the fix (`--mqtt-host 127.0.0.010`).
    case refusedValue(command: String, option: String, value: String, because: String)
    /// An option this command takes only beside another.
    case onlyWith(command: String, option: String, other: String)

    public var description: String {
        switch self {
        case .unknownCommand(let name, let suggestion):
            let hint = suggestion.map { ": did you mean '\($0)'?" } ?? ""
            return "unknown command '\(name)'\(hint) (see \(UsageText.programName) --help)"
        case .optionBeforeCommand(let option):
            return "\(option) goes after a command, as in '\(UsageText.programName) run \(option) ...' (see \(UsageText.programName) --help)"
        case .unknownOption(let command, let option, let owners, let suggestion):
            var text = "\(command) does not take \(option)"
            if !owners.isEmpty { text += ": it is an option of \(Self.listed(owners))" }
            if let suggestion { text += owners.isEmpty ? ": did you mean \(suggestion)?" : "; did you mean \(suggestion)?" }
            return text + Self.seeHelp(command)
        case .unexpectedArgument(let command, let word):
            return "\(command) takes options only, not '\(word)'" + Self.seeHelp(command)
        case .missingValue(let command, let option, let valueName):
            return "\(command): option \(option) needs a value (\(valueName))" + Self.seeHelp(command)
        case .badNumber(let command, let option, let value, let range):
            return "\(command): option \(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'"
        case .flagTakesNoValue(let command, let option):
            return "\(command): option \(option) takes no value" + Self.seeHelp(command)
        case .refusedValue(let command, let option, let value, let why):
            return "\(command): option \(option): '\(value)' \(why)"
        case .onlyWith(let command, let option, let other):
            return "\(command) takes \(option) only with \(other)" + Self.seeHelp(command)
        }
    }

    private static func seeHelp(_ command: String) -> String { " (see \(UsageText.programName) \(command) --help)" }

    /// `a`, `a and b`, `a, b and c`.
    private static func listed(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}
