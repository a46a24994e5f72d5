import BridgeCore

/// The options given to one command, read against that command's declarations
/// (`ParsableCommand.options`): the one parser of every command's words, the daemon's
/// commands', `aivi-sim`'s and `bridge-bench`'s. Each option was
/// checked here (known to the command, its value present, a number within its range);
/// the command reads the values by the same declarations.
public struct CommandLineArguments: Sendable, Equatable {
    /// The command these options were given to (`check`).
    public let command: String
    /// The values given, by option name; a flag's is one empty string each time it is given.
    private var values: [String: [String]] = [:]

    /// Reads `words` (what follows the command's name) as options of `command`;
    /// `others` name the commands an unknown option may belong to.
    public init(parsing words: ArraySlice<String>, for command: any ParsableCommand.Type,
                others: [any ParsableCommand.Type] = []) throws(CommandLineError) {
        self.command = command.name
        let declared = command.options
        var rest = words
        while let word = rest.popFirst() {
            guard word.count > 1, word.hasPrefix("-") else { throw .unexpectedArgument(command: command.name, word) }
            let (name, inlineValue) = Self.split(word)
            guard let option = declared.first(where: { $0.names.contains(name) }) else {
                throw Self.unknown(name, command: command, others: others)
            }
            try read(option, inlineValue: inlineValue, rest: &rest)
        }
        if let missing = declared.first(where: { $0.isRequired && values[$0.name] == nil }) {
            throw .missingOption(command: command.name, option: missing.name, valueName: missing.valueName)
        }
    }

    /// True when the flag was given.
    public func flag(_ option: CommandOption) -> Bool { values[option.name] != nil }

    /// The option's value (the last one given), nil when it was not given.
    public func text(_ option: CommandOption) -> String? { values[option.name]?.last }

    /// Every value of a repeated option, in the order given.
    public func texts(_ option: CommandOption) -> [String] { values[option.name] ?? [] }

    /// The number given, already within the option's range; nil when not given.
    public func number(_ option: CommandOption) -> Int? { text(option).flatMap { Int($0) } }

    private mutating func read(_ option: CommandOption, inlineValue: String?, rest: inout ArraySlice<String>) throws(CommandLineError) {
        guard let valueName = option.valueName else {
            if inlineValue != nil { throw .flagTakesNoValue(command: command, option: option.name) }
            values[option.name, default: []].append("")
            return
        }
        guard let value = inlineValue ?? Self.nextValue(&rest) else {
            throw .missingValue(command: command, option: option.name, valueName: valueName)
        }
        if case .number(_, let range) = option.value {
            guard let number = Int(value), range.contains(number) else {
                throw .badNumber(command: command, option: option.name, value: value, range: range)
            }
        }
        values[option.name, default: []].append(value)
    }

    /// The next word as a value, unless it is an option (`--config --json`), though a
    /// negative number is a value (and refused by its range).
    private static func nextValue(_ rest: inout ArraySlice<String>) -> String? {
        guard let next = rest.first, !next.hasPrefix("-") || next == "-" || Int(next) != nil else { return nil }
        return rest.popFirst()
    }

    /// An option the command does not declare: the commands that take it, and a near miss among the command's own.
    private static func unknown(_ name: String, command: any ParsableCommand.Type, others: [any ParsableCommand.Type]) -> CommandLineError {
        var owners: [String] = []
        for other in others where other.name != command.name && other.options.contains(where: { $0.names.contains(name) }) {
            owners.append(other.name)
        }
        let candidates = (command.options + [CommandOption.help]).map(\.name)
        return .unknownOption(command: command.name, option: name, owners: owners,
                              suggestion: EditDistance.suggestion(for: name, among: candidates))
    }

    /// `--name=value` into its name and value.
    public static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}
