import AiviSim
import BridgeCore
import BridgeDaemon
import Glibc
import HTTPServer
import ShellSupport

/// `switchboard-bridge demo`: a broker, the Aivi simulator, virtual devices,
/// the bridge and a web page that draws the Switchboard, all on loopback,
/// until Ctrl-C. Needs no phone and no account.
public enum DemoCommand {
    static let token = "demo-token"
    static let defaultConfigPath = "config/demo.yaml"

    /// Runs the demo; returns the exit status.
    public static func run(webPort: Int?, configPath: String?) -> Int32 {
        SignalWatcher.blockHandledSignals()
        let demoLog = DemoLog()
        let log = LogSink(minimumLevel: .debug, format: .plain) { line in
            demoLog.append(line)
            StandardErrorWriter.writeLine(line)
        }
        do {
            return try runDemo(webPort: webPort ?? 0, configPath: configPath ?? defaultConfigPath, demoLog: demoLog, log: log)
        } catch {
            StandardErrorWriter.writeLine("switchboard-bridge demo: \(error)")
            return 1
        }
    }

    static func runDemo(webPort: Int, configPath: String, demoLog: DemoLog, log: LogSink) throws -> Int32 {
        guard access(configPath, R_OK) == 0 else {
            throw ProcessStartError.config("cannot read \(configPath): run the demo from the project's folder, or pass --config PATH")
        }
        guard let directory = FileText.temporaryDirectory(prefix: "switchboard-demo") else {
            throw ProcessStartError.notReady("a temporary directory")
        }
        let broker = try MosquittoProcess(directory: directory)
        defer { broker.stop() }
        var settings = SimSettings(token: token, widgetSlugs: ["demo"])
        settings.keepaliveIntervalMs = 15_000
        let simulator = try AiviSimulator.start(settings: settings)
        defer { simulator.stop() }
        let devices = try VirtualDevices(brokerPort: broker.port, log: demoLog)
        defer { devices.stop() }
        let daemon = try Daemon(options: daemonOptions(configPath, broker, simulator, directory), log: log)
        let web = try DemoWebServer.start(port: webPort, simulator: simulator, log: demoLog)
        defer { web.stop() }
        try SignalWatcher.start { _ in daemon.requestStop() }
        print("""
        switchboard-bridge demo
          open  http://127.0.0.1:\(web.port)/   (press the tiles there; Ctrl-C stops everything)
          broker  mosquitto on 127.0.0.1:\(broker.port)  (try: mosquitto_sub -p \(broker.port) -v -t '#')
          Aivi simulator  \(simulator.baseURL)
        """)
        fflush(nil)
        return daemon.run()
    }

    static func daemonOptions(_ configPath: String, _ broker: MosquittoProcess, _ simulator: AiviSimulator, _ directory: String) -> DaemonOptions {
        let brokerPort = broker.port
        let apiBaseURL = simulator.baseURL
        return DaemonOptions(configPath: configPath, environment: ["AIVI_DEMO_TOKEN": token]) { config in
            config.mqtt.host = "127.0.0.1"
            config.mqtt.port = brokerPort
            config.aivi.apiBaseURL = apiBaseURL
            config.stateDirectory = directory + "/state"
        }
    }
}
