import CommandLineParsing

/// One command of `switchboard-bridge` (`check`, `watch`, ...): its name, its options,
/// declared once (`ParsableCommand`), and how it runs. `CommandLineTool` parses every
/// command's options with `CommandLineArguments` and prints every command's `--help` from
/// the same declarations; adding a command is a type conforming to this and its name in
/// main.swift's list.
public protocol BridgeCommand: ParsableCommand, Sendable {
    /// Runs the command; returns the process's exit status.
    func run(environment: [String: String]) -> Int32
}

extension CommandOption {
    /// `--config`, the path of the config file, which most commands take.
    public static let config = CommandOption("--config", short: "-c", .text("PATH"),
                                             help: "the config file (default \(UsageText.defaultConfigPath))")
}
