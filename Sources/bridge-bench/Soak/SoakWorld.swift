import AiviSim
import BridgeCore
import Glibc
import ShellSupport

/// The soak's world: a private mosquitto that can be killed and restarted on
/// its port, the Aivi simulator in-process with the documented rules, the
/// devices, and the bridge binary as a child process that can be killed -9
/// and started again on the same state directory.
final class SoakWorld {
    static let token = "soak-token"

    let directory: String
    let bridgeExecutable: String
    let brokerPort: Int
    private(set) var broker: MosquittoProcess?
    let simulator: AiviSimulator
    let recorder: SoakRecorder
    let fleet: SoakFleet
    let sampler: ResourceSampler
    var ledger = SoakLedger()
    private(set) var bridge: ChildProcess?
    private(set) var configVariant = 0
    /// Whether the config file on disk is a broken one right now.
    private(set) var isConfigBroken = false

    var configPath: String { directory + "/bridge.yaml" }
    var stateDirectory: String { directory + "/state" }
    var idFilePath: String { stateDirectory + "/" + UnsafeEventIdFile.name }

    init(bridgeExecutable: String, random: inout SoakRandom, sampleIntervalMs: Int) throws {
        guard let directory = FileText.temporaryDirectory(prefix: "bridge-soak") else {
            throw BenchFailure("cannot make a temporary directory")
        }
        self.directory = directory
        self.bridgeExecutable = bridgeExecutable
        let broker = try MosquittoProcess(directory: directory, logName: "mosquitto-1.log")
        self.broker = broker
        brokerPort = broker.port
        var settings = SimSettings(token: Self.token, widgetSlugs: SoakConfig.slugs)
        settings.keepaliveIntervalMs = 2_000
        do { simulator = try AiviSimulator.start(settings: settings) } catch {
            broker.stop()
            throw error
        }
        recorder = SoakRecorder(observing: simulator)
        do {
            fleet = try SoakFleet(actions: SoakConfig.actions, brokerPort: broker.port, random: &random)
            sampler = try ResourceSampler(intervalMs: sampleIntervalMs, idFilePath: directory + "/state/" + UnsafeEventIdFile.name)
        } catch {
            simulator.stop()
            broker.stop()
            throw error
        }
    }

    // MARK: the config

    func writeConfig(variant: Int, isBroken: Bool) throws {
        let yaml = SoakConfig.yaml(brokerPort: brokerPort, apiBaseURL: simulator.baseURL, stateDirectory: stateDirectory,
                                   variant: variant, isBroken: isBroken)
        try FileText.write(yaml, to: configPath + ".new")
        rename(configPath + ".new", configPath)
        if !isBroken { configVariant = variant }
        isConfigBroken = isBroken
    }

    /// Writes a config (good or broken) and sends SIGHUP.
    func reload(variant: Int, isBroken: Bool) throws {
        try writeConfig(variant: variant, isBroken: isBroken)
        bridge?.send(SIGHUP)
    }

    // MARK: the bridge

    var isBridgeRunning: Bool { bridge != nil }

    /// Starts the bridge on the last good config.
    func startBridge() throws {
        try writeConfig(variant: configVariant, isBroken: false)
        setenv(SoakConfig.tokenVariable, Self.token, 1)
        let logPath = directory + "/bridge-\(ledger.lifetimes.count + 1).log"
        let process = try ChildProcess(executable: bridgeExecutable, arguments: ["run", "--config", configPath], logPath: logPath)
        bridge = process
        ledger.lifetimes.append(SoakLedger.Lifetime(pid: process.pid, startUs: MonotonicClock.nowUs(), endUs: nil, logPath: logPath))
        sampler.watch(pid: process.pid, lifetime: ledger.lifetimes.count - 1)
    }

    /// Kills the bridge (-9) or stops it (SIGTERM, waiting for its exit).
    func stopBridge(isKill: Bool) {
        guard let bridge else { return }
        sampler.watch(pid: nil, lifetime: -1)
        if isKill { bridge.killNow() } else { bridge.stop(graceMs: 10_000) }
        if !ledger.lifetimes.isEmpty { ledger.lifetimes[ledger.lifetimes.count - 1].endUs = MonotonicClock.nowUs() }
        self.bridge = nil
    }

    /// Whether the bridge exited on its own (a crash).
    var hasBridgeDied: Bool { bridge?.hasExited ?? false }

    var currentLifetime: Int { ledger.lifetimes.count - 1 }

    // MARK: the broker

    func stopBroker(isKill: Bool) {
        guard let broker else { return }
        if isKill { broker.kill() } else { broker.stop() }
        self.broker = nil
        ledger.brokerOutages.append(SoakLedger.Outage(startUs: MonotonicClock.nowUs(), endUs: nil))
    }

    func startBroker() throws {
        guard broker == nil else { return }
        broker = try MosquittoProcess(directory: directory, port: brokerPort,
                                      logName: "mosquitto-\(ledger.brokerOutages.count + 1).log")
        if !ledger.brokerOutages.isEmpty { ledger.brokerOutages[ledger.brokerOutages.count - 1].endUs = MonotonicClock.nowUs() }
    }

    /// Every broker's log, oldest first.
    var brokerLogPaths: [String] { (1...(ledger.brokerOutages.count + 1)).map { directory + "/mosquitto-\($0).log" } }

    func stop() {
        sampler.stop()
        stopBridge(isKill: false)
        fleet.stop()
        simulator.stop()
        broker?.stop()
        broker = nil
    }
}
