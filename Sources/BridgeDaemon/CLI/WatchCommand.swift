import BridgeCore

/// `switchboard-bridge watch`: what each device says and what the bridge reads
/// from it, live, then a table per action. Needs no token; never sends a
/// command (only the presets' state queries, said on screen).
public enum WatchCommand {
    /// Runs until `seconds` have passed or Ctrl-C; returns the exit status:
    /// 0, 1 when the config cannot be used or the broker was never reached.
    public static func run(configPath: String, seconds: Int?, json: Bool) -> Int32 {
        let loaded = ConfigFile.load(path: configPath)
        guard let config = loaded.config else {
            StandardErrorWriter.writeLine(loaded.report)
            return 1
        }
        let password: String?
        do { password = try Daemon.loadMQTTPassword(config) } catch {
            StandardErrorWriter.writeLine("error: \(error)")
            return 1
        }
        let output = WatchOutput(json: json, configPath: configPath, broker: "\(config.mqtt.host):\(config.mqtt.port)", seconds: seconds)
        let runner = WatchRunner(settings: WatchRunner.settings(Daemon.mqttSettings(config, password: password)),
                                 session: WatchSession(config: config), output: output,
                                 login: BrokerLoginRefusal(username: config.mqtt.username, passwordFile: config.mqtt.passwordFile,
                                                           settings: .config(path: configPath)))
        return runner.run(seconds: seconds)
    }
}
