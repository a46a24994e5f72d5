/// The command line, parsed: a subcommand and its options.
public struct CommandLineArguments: Sendable, Equatable {
    public enum Command: String, Sendable, Equatable {
        case run, check, render, demo, watch, discover, help, version
    }

    public var command: Command
    public var configPath: String?
    public var logLevel: String?
    /// `--state ID=on|off` for `render`.
    public var states: [String] = []
    /// `--seconds N` for `watch` (nil: until Ctrl-C), `discover` (nil: 5) and `check --mqtt` (nil: 3).
    public var seconds: Int?
    /// `--json` for `watch`: one JSON object per line.
    public var json = false
    /// `--mqtt` for `check`: connect to the broker and say which actions' devices it hears.
    public var mqtt = false
    /// `--port` for `demo` (0: any free port), the broker's port for `discover`.
    public var port: Int?
    /// The options of `discover`.
    public var discover = DiscoverArguments()
    /// `--listen` for `demo`: the address the web page listens on.
    public var listen: String?

    /// Parses `arguments` (without the program name).
    public static func parse(_ arguments: [String]) throws(CommandLineError) -> CommandLineArguments {
        var parsed = CommandLineArguments(command: .help)
        var rest = arguments[...]
        if let first = rest.first, !first.hasPrefix("-") {
            guard let command = Command(rawValue: first) else { throw .unknownCommand(first) }
            parsed.command = command
            rest = rest.dropFirst()
        }
        var given: [String] = []
        while let option = rest.popFirst() {
            let (name, inlineValue) = split(option)
            given.append(name)
            func value() throws(CommandLineError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = rest.popFirst() else { throw .missingValue(name) }
                return next
            }
            switch name {
            case "--config", "-c": parsed.configPath = try value()
            case "--log-level": parsed.logLevel = try value()
            case "--state": parsed.states.append(try value())
            case "--port":
                let text = try value()
                guard let port = Int(text), (0...65_535).contains(port) else { throw .badValue(name, text) }
                parsed.port = port
            case "--seconds":
                let text = try value()
                guard let seconds = Int(text), (1...86_400).contains(seconds) else { throw .badValue(name, text) }
                parsed.seconds = seconds
            case "--json": parsed.json = true
            case "--mqtt": parsed.mqtt = true
            case "--listen": parsed.listen = try value()
            case "--help", "-h": parsed.command = .help
            case "--version": parsed.command = .version
            default:
                var discover = parsed.discover
                guard try discover.accept(name, value: value) else { throw .unknownOption(option) }
                parsed.discover = discover
            }
        }
        try refuseOthersOptions(given, command: parsed.command)
        if parsed.command == .check, parsed.seconds != nil, !parsed.mqtt { throw .onlyWith(command: "check", option: "--seconds", other: "--mqtt") }
        return parsed
    }

    /// The commands each shared option belongs to (`discover`'s own are in `DiscoverArguments`).
    static let commandsByOption: [String: [Command]] = [
        "--config": [.run, .check, .render, .watch, .discover, .demo], "-c": [.run, .check, .render, .watch, .discover, .demo],
        "--log-level": [.run], "--state": [.render], "--port": [.discover, .demo], "--seconds": [.check, .watch, .discover],
        "--json": [.watch], "--listen": [.demo], "--mqtt": [.check],
    ]

    /// An option of another command is refused, naming the commands it belongs to
    /// (`check --listen foo` ran check and ignored it). `--help` and `--version` take any.
    private static func refuseOthersOptions(_ names: [String], command: Command) throws(CommandLineError) {
        guard command != .help, command != .version else { return }
        for name in names where !["--help", "-h", "--version"].contains(name) {
            let owners = commandsByOption[name] ?? [.discover]
            guard owners.contains(command) else {
                throw .notAnOptionOf(command: command.rawValue, option: name, owners: owners.map(\.rawValue))
            }
        }
    }

    private static func split(_ option: String) -> (String, String?) {
        guard option.hasPrefix("--"), let equals = option.firstIndex(of: "=") else { return (option, nil) }
        return (String(option[..<equals]), String(option[option.index(after: equals)...]))
    }
}

/// A command line that could not be understood.
public enum CommandLineError: Error, Equatable, CustomStringConvertible {
    case unknownCommand(String)
    case unknownOption(String)
    case missingValue(String)
    case badValue(String, String)
    /// An option's value refused with why and the fix (`--mqtt-host 127.0.0.010`).
    case refusedValue(String, String, because: String)
    /// An option of other commands given to this one.
    case notAnOptionOf(command: String, option: String, owners: [String])
    /// An option this command takes only beside another.
    case onlyWith(command: String, option: String, other: String)

    public var description: String {
        switch self {
        case .unknownCommand(let name): return "unknown command '\(name)' (see --help)"
        case .unknownOption(let name): return "unknown option '\(name)' (see --help)"
        case .missingValue(let name): return "option \(name) needs a value"
        case .badValue(let name, let value): return "option \(name): '\(value)' is not valid"
        case .refusedValue(let name, let value, let why): return "option \(name): '\(value)' \(why)"
        case .notAnOptionOf(let command, let option, let owners):
            let list = owners.count > 1 ? owners.dropLast().joined(separator: ", ") + " and " + (owners.last ?? "") : owners.joined()
            return "\(command) does not take \(option): it is an option of \(list) (see --help)"
        case .onlyWith(let command, let option, let other):
            return "\(command) takes \(option) only with \(other) (see --help)"
        }
    }
}
