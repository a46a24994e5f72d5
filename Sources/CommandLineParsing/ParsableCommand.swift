/// A command (`switchboard-bridge check`) or a program that is one command (`aivi-sim`,
/// `bridge-bench`): its name, what it does and its options, declared once, and how it is
/// made from the options the parser read. `CommandLineArguments` parses its words with
/// these declarations and `HelpText` prints its `--help` from them (swift-argument-parser's
/// shape, written here).
public protocol ParsableCommand {
    /// The word that selects the command (`check`); empty for a program that is one command.
    static var name: String { get }
    /// What the command does, in one line, for `--help`.
    static var abstract: String { get }
    /// The command's options, in the order its `--help` lists them (`--help` itself is implied).
    static var options: [CommandOption] { get }
    /// Text `--help` prints after the options, as written (empty: none).
    static var discussion: String { get }
    /// The command, from options the parser has checked against `options`; throws for a
    /// value that only the command can judge (a log level, a host) or a combination it refuses.
    init(_ arguments: CommandLineArguments) throws(CommandLineError)
}

extension ParsableCommand {
    public static var discussion: String { "" }

    /// The command line of a program that is this one command (`words`, without the
    /// program's name): its help when `--help` or `-h` is anywhere on it, else the command
    /// or the refusal to say on stderr, with the status to exit with.
    public static func parse(_ words: [String], program: String) -> CommandLineOutcome<Self> {
        if words.contains(where: { CommandOption.help.names.contains($0) }) {
            return .exit(status: 0, text: HelpText.help(for: Self.self, program: program))
        }
        do {
            return .run(try Self(CommandLineArguments(parsing: words[...], for: Self.self)))
        } catch {
            return .exit(status: CommandLineError.exitStatus, text: "\(program): \(error.message(program: program))")
        }
    }
}

/// What the command line of a one-command program comes to.
public enum CommandLineOutcome<Command> {
    /// The command, to run.
    case run(Command)
    /// Text to print and the status to exit with: the help (0, on stdout) or a refusal
    /// (`CommandLineError.exitStatus`, on stderr).
    case exit(status: Int32, text: String)
}
