import AiviSim
import BridgeCore
import BridgeDaemon
import CommandLineParsing
import Glibc
import HTTPServer
import ShellSupport

/// `switchboard-bridge demo`: a broker, the Aivi simulator, virtual devices,
/// the bridge and a web page that draws the Switchboard, all on loopback,
/// until Ctrl-C. Needs no phone and no account.
public struct DemoCommand: BridgeCommand {
    public static let name = "demo"
    public static let abstract = "everything on loopback (a broker, the Aivi simulator, virtual devices, the bridge and a page "
        + "that draws the Switchboard), no phone or account needed"
    static let portOption = CommandOption("--port", .number("PORT", 0...65_535), help: "the web page's port (default: any free port)")
    static let listenOption = CommandOption("--listen", .text("ADDRESS"),
        help: "the web page's address (default 127.0.0.1; the page has no authentication, so another address is warned about)")
    static let configOption = CommandOption("--config", short: "-c", .text("PATH"),
        help: "the config (default \(defaultConfigPath) in the source tree, else the package's examples/demo.yaml)")
    public static let options = [portOption, listenOption, configOption]

    public var webPort: Int?
    public var listen: String?
    public var configPath: String?

    public init(_ arguments: CommandLineArguments) {
        webPort = arguments.number(Self.portOption)
        listen = arguments.text(Self.listenOption)
        configPath = arguments.text(Self.configOption)
    }

    public func run(environment: [String: String]) -> Int32 {
        Self.run(webPort: webPort, configPath: configPath, listen: listen)
    }

    static let token = "demo-token"
    static let defaultConfigPath = "config/demo.yaml"
    /// Where the package installs it, under the binary's prefix (/usr/bin → /usr/share/doc/...).
    static let installedConfigPath = "share/doc/switchboard-bridge/examples/demo.yaml"

    /// The config the demo reads without --config: the source tree's when run from the
    /// project's folder, else the one installed beside the binary, else (unreadable,
    /// said by the caller) the source tree's.
    static func defaultConfig(executableDirectory: String? = OwnExecutable.directory()) -> String {
        guard access(defaultConfigPath, R_OK) != 0, let executableDirectory,
              let slash = executableDirectory.lastIndex(of: "/") else { return defaultConfigPath }
        let installed = executableDirectory[..<slash] + "/" + installedConfigPath
        return access(installed, R_OK) == 0 ? installed : defaultConfigPath
    }

    /// Runs the demo; returns the exit status.
    public static func run(webPort: Int?, configPath: String?, listen: String? = nil) -> Int32 {
        SignalSource.blockHandledSignals()
        let demoLog = DemoLog()
        // Every line goes to the page's log; the terminal gets what a newcomer reads
        // (issue 41): no debug lines scrolling the page's address away, no token line.
        let log = LogSink(minimumLevel: .debug, format: .plain) { text in
            demoLog.append(text)
            let shown = DemoTerminal.shown(text)
            if !shown.isEmpty { StandardErrorWriter.writeLine(shown) }
        }
        // The one reading of listening addresses (status.listen's): `localhost` is the IPv4 loopback.
        guard let address = ListenAddress.parse(host: listen ?? "127.0.0.1", port: webPort ?? 0) else {
            StandardErrorWriter.writeLine("switchboard-bridge demo: --listen \(listen ?? ""): not an IP address literal or localhost "
                                          + "(127.0.0.1, ::1, 0.0.0.0, ...)")
            return 2
        }
        do {
            return try runDemo(address: address, configPath: configPath ?? defaultConfig(), demoLog: demoLog, log: log)
        } catch {
            StandardErrorWriter.writeLine("switchboard-bridge demo: \(error)")
            return 1
        }
    }

    static func runDemo(address: ListenAddress, configPath: String, demoLog: DemoLog, log: LogSink) throws -> Int32 {
        guard access(configPath, R_OK) == 0 else {
            throw ProcessStartError.config("cannot read \(configPath): run the demo from the project's folder, or pass --config PATH "
                                           + "(the package installs /usr/share/doc/switchboard-bridge/examples/demo.yaml)")
        }
        guard let directory = FileText.temporaryDirectory(prefix: "switchboard-demo") else {
            throw ProcessStartError.notReady("a temporary directory")
        }
        defer { DirectoryTree.remove(directory) }
        let broker = try MosquittoProcess(directory: directory)
        defer { broker.stop() }
        var settings = SimSettings(token: token, widgetSlugs: ["demo"])
        settings.keepaliveIntervalMs = 15_000
        let simulator = try AiviSimulator.start(settings: settings)
        defer { simulator.stop() }
        let devices = try VirtualDevices(brokerPort: broker.port, log: demoLog)
        defer { devices.stop() }
        let daemon = try Daemon(options: daemonOptions(configPath, broker, simulator, directory), log: log)
        let web = try startWebServer(address, simulator: simulator, demoLog: demoLog, daemon: daemon)
        defer { web.stop() }
        try daemon.watchSignals { _ in daemon.requestStop() }
        let urls = LocalAddresses.pageURLs(host: address.host, port: web.port)
        let open = urls.isEmpty ? "http://<this machine's address>:\(web.port)/ (no address found)" : urls.joined(separator: "  or  ")
        print("""
        switchboard-bridge demo
          open  \(open)   (press the tiles there; Ctrl-C stops everything)
          log   below, what the bridge does; every detail is in the page's log
          config  \(configPath)
          broker  mosquitto on 127.0.0.1:\(broker.port)  (try: mosquitto_sub -p \(broker.port) -v -t '#')
          Aivi simulator  \(simulator.baseURL)
        """)
        fflush(nil)
        return daemon.run()
    }

    /// The web page, with a plain message for a port in use and a warning for
    /// an address other than loopback (the page has no authentication).
    static func startWebServer(_ address: ListenAddress, simulator: AiviSimulator, demoLog: DemoLog, daemon: Daemon) throws -> HTTPServer {
        let host = address.host, port = address.port
        if !address.isLoopback {
            StandardErrorWriter.writeLine("warning: the demo page will listen on \(host) and has no authentication: "
                                          + "anyone who can reach it can press the tiles; prefer ssh -L (see README)")
        }
        let web: HTTPServer
        do {
            web = try DemoWebServer.start(host: host, port: port, simulator: simulator, log: demoLog, daemon: daemon)
        } catch .systemCall(let name, let code) where name == "bind" && code == EADDRINUSE {
            throw DemoError("port \(port) is in use on \(host): choose another with --port, or leave --port out for any free port")
        } catch {
            throw DemoError("cannot serve the page on \(host):\(port): \(error)")
        }
        return web
    }

    static func daemonOptions(_ configPath: String, _ broker: MosquittoProcess, _ simulator: AiviSimulator, _ directory: String) -> DaemonOptions {
        let brokerPort = broker.port
        let apiBaseURL = simulator.baseURL
        return DaemonOptions(configPath: configPath, environment: [DemoTerminal.tokenVariable: token]) { config in
            config.mqtt.host = "127.0.0.1"
            config.mqtt.port = brokerPort
            config.aivi.apiBaseURL = apiBaseURL
            config.stateDirectory = directory + "/state"
        }
    }
}

/// Why the demo could not start, in words.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
