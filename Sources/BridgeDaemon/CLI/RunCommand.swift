import CommandLineParsing

/// `switchboard-bridge run`: the daemon, in the foreground until SIGTERM or SIGINT.
public struct RunCommand: BridgeCommand {
    public static let name = "run"
    public static let abstract = "run the daemon"
    static let logLevelOption = CommandOption("--log-level", .text("LEVEL"), help: "error, warning, info (default) or debug")
    public static let options = [CommandOption.config, logLevelOption]

    public var configPath: String
    public var logLevel: LogLevel

    public init(_ arguments: CommandLineArguments) throws(CommandLineError) {
        configPath = arguments.text(CommandOption.config) ?? UsageText.defaultConfigPath
        guard let text = arguments.text(Self.logLevelOption) else {
            logLevel = .info
            return
        }
        do { logLevel = try LogLevel(parsing: text) } catch {
            let levels = LogLevel.allCases.map(\.name).joined(separator: ", ")
            throw .refusedValue(command: Self.name, option: Self.logLevelOption.name, value: text, because: "is not a level: use one of \(levels)")
        }
    }

    public func run(environment: [String: String]) -> Int32 {
        Daemon.main(configPath: configPath, logLevel: logLevel, environment: environment)
    }
}
