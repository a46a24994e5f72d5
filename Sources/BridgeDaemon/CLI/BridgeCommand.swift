/// One command of `switchboard-bridge` (`check`, `watch`, ...): its name, its options,
/// declared once, and how it runs. `CommandLineTool` parses every command's options with
/// `CommandLineArguments` and prints every command's `--help` from the same declarations;
/// adding a command is a type conforming to this and its name in main.swift's list.
public protocol BridgeCommand: Sendable {
    /// The word that selects the command (`check`).
    static var name: String { get }
    /// What the command does, in one line, for `--help`.
    static var abstract: String { get }
    /// The command's options, in the order its `--help` lists them (`--help` itself is implied).
    static var options: [CommandOption] { get }
    /// The command, from options the parser has checked against `options`; throws for a
    /// value that only the command can judge (a log level, a host) or a combination it refuses.
    init(_ arguments: CommandLineArguments) throws(CommandLineError)
    /// Runs the command; returns the process's exit status.
    func run(environment: [String: String]) -> Int32
}
