import AiviSim
import Glibc
import ShellSupport

/// Everything a run needs, started in order: a private mosquitto, the Aivi
/// simulator in-process (rate limits relaxed), the bench's devices with a
/// retained state each, and the bridge binary as a child process.
final class BenchRig {
    static let token = "bench-token"
    static let phone = "bench-phone"

    let sizes: BenchSizes
    /// The bridge's CPU budget, when the run is a starved one.
    let cgroup: CPUCgroup?
    /// The instruction counter the bridge runs under (`--instructions`).
    private let counter: CallgrindCounter?
    /// What the bridge is started inside of: the cgroup, or the instruction counter.
    var wrapper: BridgeWrapper? { cgroup ?? counter }
    /// How long a spawned bridge may take to publish its first PATCH: under callgrind
    /// (tens of times slower, more on a busy machine) a debug build can take minutes.
    var startTimeoutMs: Int { counter == nil ? 30_000 : 180_000 }
    let directory: String
    let broker: MosquittoProcess
    let simulator: AiviSimulator
    let recorder: SimRecorder
    let devices: DeviceSimulator
    /// The state each toggle's device last reported, as the bench drove it.
    var states: [Bool]
    private(set) var bridge: ChildProcess?
    private(set) var spawnedUs: Int64 = 0

    /// `counter`: the bridge runs under callgrind (`--instructions`; not with a cgroup).
    init(sizes: BenchSizes, brokerTCPNoDelay: Bool, cgroup: CPUCgroup? = nil, counter: CallgrindCounter? = nil) throws {
        self.sizes = sizes
        self.cgroup = cgroup
        self.counter = counter
        guard let directory = FileText.temporaryDirectory(prefix: "bridge-bench") else {
            throw BenchFailure("cannot make a temporary directory")
        }
        self.directory = directory
        bridgeLogPath = directory + "/bridge.log"
        broker = try MosquittoProcess(directory: directory, tcpNoDelay: brokerTCPNoDelay)
        do {
            simulator = try AiviSimulator.start(settings: Self.simulatorSettings(sizes))
        } catch {
            broker.stop()
            throw error
        }
        recorder = SimRecorder(observing: simulator)
        states = (0..<sizes.toggleCount).map { $0 % 2 == 0 }
        do {
            devices = try DeviceSimulator(brokerPort: broker.port)
        } catch {
            simulator.stop()
            broker.stop()
            throw error
        }
    }

    /// The documented service with its press limits lifted and other phones
    /// updated at once: 1,000 paced presses would otherwise take 17 minutes.
    static func simulatorSettings(_ sizes: BenchSizes) -> SimSettings {
        var settings = SimSettings(token: token, widgetSlugs: sizes.slugs)
        settings.rules.phoneBurst = 1_000_000
        settings.rules.phoneRefillMs = 1
        settings.rules.phonePressesPerMinute = 1_000_000
        settings.rules.accountBurst = 1_000_000
        settings.rules.accountRefillMs = 1
        settings.rules.otherPhoneUpdateIntervalMs = 0
        settings.maxRetainedEvents = 5_000
        return settings
    }

    /// Publishes every device's retained state and waits until the broker holds them all.
    func publishRetainedStates() throws {
        guard devices.waitUntilConnected(timeoutMs: 10_000) else { throw BenchFailure("the bench's devices did not connect") }
        for toggle in 0..<sizes.toggleCount {
            try devices.publishState(toggle: toggle, isOn: states[toggle], retain: true, qos: .atLeastOnce)
        }
        let held = RetainedStateProbe.retainedCount(toggleCount: sizes.toggleCount, brokerPort: broker.port, timeoutMs: 10_000)
        guard held >= sizes.toggleCount else {
            throw BenchFailure("the broker holds \(held) of \(sizes.toggleCount) retained states")
        }
    }

    /// Writes the config and spawns the bridge (`run --config`), noting the spawn
    /// time; `run` names a later bridge of the same rig (its config, state
    /// directory and log), `hasUnsafeButtons` gives each widget a `repeat_safe: false` button,
    /// `statusPort` turns the status listener on.
    /// `apiBaseURL` replaces the simulator's (a name for its 127.0.0.1), `hasPulsedDoor` adds
    /// `BenchConfig`'s pulsed garage door to the first widget.
    func spawnBridge(executable: String, run: String = "", hasUnsafeButtons: Bool = false, statusPort: Int? = nil,
                     apiBaseURL: String? = nil, hasPulsedDoor: Bool = false) throws {
        let configPath = directory + "/bridge\(run).yaml"
        let yaml = BenchConfig.yaml(sizes: sizes, brokerPort: broker.port, apiBaseURL: apiBaseURL ?? simulator.baseURL,
                                    stateDirectory: stateDirectory(run: run), hasUnsafeButtons: hasUnsafeButtons,
                                    statusPort: statusPort, hasPulsedDoor: hasPulsedDoor)
        try FileText.write(yaml, to: configPath)
        setenv(BenchConfig.tokenVariable, Self.token, 1)
        spawnedUs = MonotonicClock.nowUs()
        let command = wrapper.map { $0.wrapped(executable: executable, arguments: ["run", "--config", configPath]) }
            ?? (executable: executable, arguments: ["run", "--config", configPath])
        bridgeLogPath = directory + "/bridge\(run).log"
        bridge = try ChildProcess(executable: command.executable, arguments: command.arguments, logPath: bridgeLogPath)
    }

    /// Waits until a bridge just spawned has published every widget and opened the event stream
    /// (each widget's first PATCH within `timeoutMs`, default `startTimeoutMs`).
    func waitUntilStarted(timeoutMs: Int? = nil) throws {
        let firstIndex = recorder.patchCount
        for slug in sizes.slugs {
            guard recorder.waitForPatch(from: firstIndex, timeoutMs: timeoutMs ?? startTimeoutMs, where: { $0.slug == slug }) != nil else {
                throw BenchFailure("widget \(slug) was never published by the new bridge (see \(bridgeLogPath))")
            }
        }
        guard simulator.waitForEventStream(timeoutMs: 10_000) else {
            throw BenchFailure("the bridge did not open the event stream (see \(bridgeLogPath))")
        }
    }

    /// The state directory of the bridge spawned as `run`.
    func stateDirectory(run: String = "") -> String { directory + "/state\(run)" }

    /// Stops the bridge (SIGTERM, by its PID) so that another can be spawned.
    func stopBridge() {
        bridge?.stop()
        bridge = nil
    }

    private(set) var bridgeLogPath: String

    var bridgeStats: ProcessStats? { bridge.map { ProcessStats(pid: $0.pid) } }

    /// Whether the bridge process is still running.
    var isBridgeRunning: Bool { bridge.map { !$0.hasExited } ?? false }

    private var isStopped = false

    /// Stops everything once, the bridge first, each by its PID.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        bridge?.stop()
        devices.stop()
        simulator.stop()
        broker.stop()
    }

    /// Whether `arrival`'s toggles all show the bench's states.
    func showsCurrentStates(_ arrival: PatchArrival) -> Bool {
        let shown = arrival.toggleStates
        let widget = sizes.slugs.firstIndex(of: arrival.slug) ?? 0
        let first = widget * sizes.togglesPerWidget
        return (first..<first + sizes.togglesPerWidget).allSatisfy { shown[BenchConfig.actionId($0)] == states[$0] }
    }
}
