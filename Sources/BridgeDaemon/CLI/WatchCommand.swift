import BridgeCore
import CommandLineParsing
import ShellSupport

/// `switchboard-bridge watch`: what each device says and what the bridge reads
/// from it, live, then a table per action. Needs no token; never sends a
/// command (only the presets' state queries, said on screen).
public struct WatchCommand: BridgeCommand {
    public static let name = "watch"
    public static let abstract = "show live what each device says and what the bridge reads, then a table per action"
    /// The values `--seconds` takes (`watch`'s and `check --mqtt`'s): up to a day.
    static let secondsRange = 1...86_400
    static let secondsOption = CommandOption("--seconds", .number("N", secondsRange), help: "stop after N seconds (default: at Ctrl-C)")
    static let jsonOption = CommandOption("--json", help: "one JSON object per line, for scripts")
    public static let options = [CommandOption.config, secondsOption, jsonOption]

    public var configPath: String
    /// nil: until Ctrl-C.
    public var seconds: Int?
    public var json: Bool

    public init(_ arguments: CommandLineArguments) {
        configPath = arguments.text(CommandOption.config) ?? UsageText.defaultConfigPath
        seconds = arguments.number(Self.secondsOption)
        json = arguments.flag(Self.jsonOption)
    }

    /// Runs until `seconds` have passed or Ctrl-C; returns the exit status:
    /// 0, 1 when the config cannot be used or the broker was never reached.
    public func run(environment: [String: String]) -> Int32 {
        Self.runner(configPath: configPath, seconds: seconds, json: json, listensOnly: false)?.run(seconds: seconds) ?? 1
    }

    /// How long `check --mqtt` listens without --seconds.
    public static let checkListenSeconds = 3

    /// `check --mqtt`: the same listening as `watch` (its state queries, no command),
    /// said as one line and the table of which actions' devices were heard; 1 when the
    /// broker was never reached.
    public static func listen(configPath: String, seconds: Int) -> Int32 {
        runner(configPath: configPath, seconds: seconds, json: false, listensOnly: true)?.run(seconds: seconds) ?? 1
    }

    private static func runner(configPath: String, seconds: Int?, json: Bool, listensOnly: Bool) -> WatchRunner? {
        let loaded = ConfigFile.load(path: configPath)
        guard let config = loaded.config else {
            StandardErrorWriter.writeLine(loaded.report)
            return nil
        }
        let password: String?
        do { password = try Daemon.loadMQTTPassword(config) } catch {
            StandardErrorWriter.writeLine("error: \(error)")
            return nil
        }
        let output = WatchOutput(json: json, configPath: configPath, broker: "\(config.mqtt.host):\(config.mqtt.port)", seconds: seconds,
                                 listensOnly: listensOnly)
        return WatchRunner(settings: WatchRunner.settings(Daemon.mqttSettings(config, password: password)),
                           session: WatchSession(config: config), output: output,
                           login: BrokerLoginRefusal(username: config.mqtt.username, passwordFile: config.mqtt.passwordFile,
                                                     settings: .config(path: configPath)))
    }
}
