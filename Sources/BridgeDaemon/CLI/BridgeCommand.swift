/// Runs one parsed command line: the one place `main` calls into.
public enum BridgeCommand {
    /// Runs the command; returns the process's exit status.
    public static func run(_ arguments: CommandLineArguments, environment: [String: String]) -> Int32 {
        let configPath = arguments.configPath ?? UsageText.defaultConfigPath
        switch arguments.command {
        case .help:
            print(UsageText.help)
            return 0
        case .version:
            print(UsageText.version)
            return 0
        case .check:
            let report = CheckCommand.run(configPath: configPath, environment: environment)
            if !report.problems.isEmpty { StandardErrorWriter.writeLine(report.problems) }
            if !report.summary.isEmpty { print(report.summary) }
            guard arguments.mqtt, report.status == 0 else { return report.status }
            return WatchCommand.listen(configPath: configPath, seconds: arguments.seconds ?? WatchCommand.checkListenSeconds)
        case .render:
            return printed(RenderCommand.run(configPath: configPath, stateArguments: arguments.states))
        case .watch:
            return WatchCommand.run(configPath: configPath, seconds: arguments.seconds, json: arguments.json)
        case .discover:
            return DiscoverCommand.run(arguments, environment: environment)
        case .run:
            return Daemon.main(configPath: configPath, logLevel: arguments.logLevel, environment: environment)
        case .demo:
            StandardErrorWriter.writeLine("switchboard-bridge demo: runs from the executable (see main.swift)")
            return 2
        }
    }

    private static func printed(_ result: (status: Int32, output: String)) -> Int32 {
        if result.status == 0 { print(result.output) } else { StandardErrorWriter.writeLine(result.output) }
        return result.status
    }
}
