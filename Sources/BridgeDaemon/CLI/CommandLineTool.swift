import BridgeCore
import CommandLineParsing
import ShellSupport

/// The command line of `switchboard-bridge`: its first word picks one of `commands`,
/// whose options `CommandLineArguments` reads; `--help` (of the program or of a command)
/// and `--version` are answered here. The one dispatcher: every command it can pick, it runs.
public struct CommandLineTool: Sendable {
    /// The program's commands, in the order `--help` lists them.
    public let commands: [any BridgeCommand.Type]

    public init(commands: [any BridgeCommand.Type]) {
        self.commands = commands
    }

    /// What a command line asks for.
    public enum Request: Sendable {
        /// A command to run.
        case run(any BridgeCommand)
        /// Text to print to stdout, exit 0: a `--help` or the version.
        case print(String)
    }

    /// Parses `arguments` (without the program's name).
    public func parse(_ arguments: [String]) throws(CommandLineError) -> Request {
        guard let first = arguments.first else { return .print(UsageText.help(commands: commands)) }
        let rest = arguments.dropFirst()
        switch first {
        case "--help", "-h":
            return .print(UsageText.help(commands: commands))
        case "help":
            guard let name = rest.first, !name.hasPrefix("-") else { return .print(UsageText.help(commands: commands)) }
            return .print(UsageText.help(for: try command(named: name)))
        case "--version", "version":
            return .print(UsageText.version)
        default:
            guard !first.hasPrefix("-") else { throw .optionBeforeCommand(CommandLineArguments.split(first).0) }
            let command = try command(named: first)
            if rest.contains(where: { CommandOption.help.names.contains($0) }) { return .print(UsageText.help(for: command)) }
            if rest.contains("--version") { return .print(UsageText.version) }
            return .run(try command.init(CommandLineArguments(parsing: rest, for: command, others: commands)))
        }
    }

    /// Parses and runs `arguments`; a command line not understood is said on stderr, status 2.
    public func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        do {
            switch try parse(arguments) {
            case .run(let command):
                return command.run(environment: environment)
            case .print(let text):
                print(text)
                return 0
            }
        } catch {
            StandardErrorWriter.writeLine("\(UsageText.programName): \(error.message(program: UsageText.programName))")
            return CommandLineError.exitStatus
        }
    }

    private func command(named name: String) throws(CommandLineError) -> any BridgeCommand.Type {
        guard let command = commands.first(where: { $0.name == name }) else {
            throw .unknownCommand(name, suggestion: EditDistance.suggestion(for: name, among: commands.map { $0.name }))
        }
        return command
    }
}
