import BridgeCore
import Glibc
import MQTTShell
import ShellSupport

/// The composition root: builds the shells around the pure core from a config
/// file and runs them. `main` and the tests both start the bridge through here.
public final class Daemon: Sendable {
    let runtime: BridgeRuntime
    /// The one loop: the runtime turns it on the thread that calls `run()`.
    let loop: EventLoop
    let mqtt: MQTTClient
    let aivi: AiviLink
    let log: LogSink
    let supervisor: DaemonSupervisor
    let metrics = DaemonMetrics()
    let statusServer: StatusServer
    /// Held for the life of the process: no other bridge uses this state directory
    /// (nil only when the directory cannot be written and no action is unsafe).
    let stateLock: StateDirectoryLock?
    /// The id store behind its syncing thread: records of unsafe presses, off the loop.
    let recorder: SyncingEventIdRecorder

    /// Builds everything from the config at `configPath`; nothing connects yet.
    public init(options: DaemonOptions, log: LogSink) throws(DaemonStartError) {
        let loaded = options.loadConfig()
        guard let config = loaded.config else { throw .badConfig(loaded.report) }
        if !loaded.report.isEmpty { log.log(.warning, lines: loaded.report.split(separator: "\n").map(String.init)) }
        for warning in CredentialWarning.configFile(options.configPath) { log.warning("\(warning)") }
        let token = try Self.loadToken(config, options.environment, log)
        let mqttPassword = try Self.loadMQTTPassword(config, log)
        try Self.checkCAFiles(config)
        let (stateLock, store, rememberedEvents) = try Self.openStore(config, log, environment: options.environment)
        self.stateLock = stateLock
        let recorder = SyncingEventIdRecorder(store: store, report: { log.warning("\($0)") })
        self.recorder = recorder
        do { loop = try EventLoop() } catch { throw .system("\(error)") }
        let relay = RuntimeRelay(loop: loop)
        self.log = log
        let metrics = self.metrics
        let mqttConnects = ConditionLock(0)
        let mqttRelay = MQTTEventRelay(relay: relay, log: log, settings: config.mqtt, configPath: options.configPath)
        mqtt = MQTTClient(settings: Self.mqttSettings(config, password: mqttPassword)) { event in
            if event == .connected, mqttConnects.withLock({ count in count += 1; return count > 1 }) {
                metrics.recordReconnect(.mqtt)
            }
            mqttRelay.forward(event)
        }
        aivi = try AiviLink(settings: config.aivi, timing: config.timing, token: token, relay: relay, metrics: metrics, log: log, loop: loop)
        supervisor = DaemonSupervisor(notifier: Self.notifier(options.environment, log), log: log)
        var bridge = Bridge(config: config, rememberedUnsafeEvents: rememberedEvents, randomSeed: Self.randomSeed())
        bridge.writesDebugLog = LogLevel.debug.isShown(atMinimum: log.minimumLevel)
        let runtime = BridgeRuntime(
            bridge: bridge,
            ports: Self.ports(
                mqtt: mqtt, aivi: aivi, recorder: recorder, options: options, log: log,
                observers: DaemonObservers(supervisor: supervisor, metrics: metrics)),
            idleWakeMs: supervisor.idleWakeMs,
            loop: loop,
            relay: relay
        )
        self.runtime = runtime
        statusServer = StatusServer(metrics: metrics, snapshot: { runtime.statusSnapshot() },
                                    generation: { runtime.statusGeneration })
        if let status = config.status {
            do { try statusServer.start(status, on: loop) } catch { log.error("\(error)") }
        }
    }

    /// Connects and runs until a stop finishes, on the calling thread (the loop's);
    /// returns the exit status. The event
    /// stream opens when the core says (once MQTT is up, or after a bounded wait).
    public func run() -> Int32 {
        do { try mqtt.start(on: loop) } catch {
            log.error("cannot start MQTT: \(error)")
            return 1
        }
        runtime.run()
        recorder.stop()
        supervisor.stopping()
        aivi.stop()
        mqtt.stop()
        statusServer.stop()
        log.flushAtExit()
        log.info("stopped")
        return 0
    }

    /// The status server's port, when it runs (tests bind port 0).
    public var statusPort: Int? { statusServer.port }

    /// Hands SIGTERM, SIGINT and SIGHUP to `onSignal` on the loop's thread (a self-pipe
    /// on the one loop: no thread of their own). Call before `run()`, after
    /// `SignalSource.blockHandledSignals()`.
    public func watchSignals(_ onSignal: @escaping (Int32) -> Void) throws(EventLoopError) {
        loop.add(try SignalSource(onSignal: onSignal))
    }

    /// SIGTERM/SIGINT: stop taking presses, finish the PATCH in flight, disconnect.
    public func requestStop() {
        aivi.stopEvents()
        runtime.submit(.stopRequested)
    }

    /// SIGHUP: reload the config; a bad one is reported and the old one kept.
    public func requestReload() {
        supervisor.reloading()
        runtime.submit(.reloadRequested)
    }

    /// `switchboard-bridge run`: signals, logging, exit status.
    public static func main(configPath: String, logLevel: LogLevel, environment: [String: String]) -> Int32 {
        SignalSource.blockHandledSignals()
        let log = LogSink.standardError(minimumLevel: logLevel, environment: environment)
        let daemon: Daemon
        let options = DaemonOptions(configPath: configPath, environment: environment)
        do { daemon = try Daemon(options: options, log: log) } catch {
            log.error("\(error)")
            return error.exitStatus
        }
        do {
            try daemon.watchSignals { signal in
                if signal == SIGHUP { daemon.requestReload() } else { daemon.requestStop() }
            }
        } catch {
            log.error("cannot watch signals: \(error)")
            return 1
        }
        log.info("switchboard-bridge starting with \(configPath)")
        return daemon.run()
    }
}

/// Why the daemon could not start. Never contains a secret.
public enum DaemonStartError: Error, CustomStringConvertible {
    case badConfig(String)
    case token(String)
    case mqttPassword(String)
    case stateDirectory(String)
    /// Another bridge holds the state directory's lock.
    case stateDirectoryInUse(String)
    /// A file the bridge refuses (a FIFO, a symbolic link where it never follows one,
    /// too large): a CA file, the id file. Only the administrator can fix it.
    case unusableFile(String)
    case http(String)
    /// The system refused what the loop needs (its wake pipe).
    case system(String)

    /// `EX_CONFIG` for what only the administrator can fix (the config, the token, the MQTT
    /// password, another bridge on the same state directory): the unit's `RestartPreventExitStatus=` then stops systemd from restarting
    /// it in a loop. 1 for the rest, which a restart may cure (a state directory not mounted yet).
    public var exitStatus: Int32 {
        switch self {
        case .badConfig, .token, .mqttPassword, .stateDirectoryInUse, .unusableFile: return Self.configurationExitStatus
        case .stateDirectory, .http, .system: return 1
        }
    }

    /// `EX_CONFIG` from sysexits.h; systemd shows it as `status=78/CONFIG`.
    public static let configurationExitStatus: Int32 = 78

    public var description: String {
        switch self {
        case .badConfig(let report): return report
        case .token(let reason): return "API token: \(reason)"
        case .mqttPassword(let reason): return "MQTT password: \(reason)"
        case .stateDirectory(let reason): return "state directory: \(reason)"
        case .stateDirectoryInUse(let reason): return "state directory \(reason)"
        case .unusableFile(let reason): return reason
        case .http(let reason): return "HTTP client: \(reason)"
        case .system(let reason): return "event loop: \(reason)"
        }
    }
}
