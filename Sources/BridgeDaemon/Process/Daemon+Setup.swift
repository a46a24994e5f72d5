import BridgeCore
import Glibc
import MQTTShell
import ShellSupport

extension Daemon {
    static func loadToken(_ config: BridgeConfig, _ environment: [String: String], _ log: LogSink) throws(DaemonStartError) -> Secret {
        let loader = CredentialLoader(
            tokenFilePath: config.aivi.tokenFile, tokenEnvironmentVariable: config.aivi.tokenEnv, environment: environment)
        do {
            let token = try loader.load()
            for warning in token.warnings { log.warning("\(warning)") }
            log.info("API token read from \(token.source)")
            return token.secret
        } catch {
            throw .token(TokenErrorText.describe(error, config: config).message)
        }
    }

    /// The first line of `mqtt.password_file`; warns on `log`, as `check` does, when others may read it.
    static func loadMQTTPassword(_ config: BridgeConfig, _ log: LogSink? = nil) throws(DaemonStartError) -> String? {
        guard let path = config.mqtt.passwordFile else { return nil }
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path: path, limit: 4_096) } catch { throw .mqttPassword("\(error)") }
        if let log { for warning in CredentialWarning.mqttPasswordFile(path) { log.warning("\(warning)") } }
        let firstLine = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
        return String(firstLine)
    }

    /// The CA files libcurl and libmosquitto open themselves (with a blocking
    /// `open`, which a FIFO there would hang for ever with the signals blocked),
    /// looked at through the one opening path first, as `check` does.
    static func checkCAFiles(_ config: BridgeConfig) throws(DaemonStartError) {
        for (key, path) in FileAccessProbe.caFiles(config) {
            guard let problem = FileAccessProbe.readProblem(path, limit: FileAccessProbe.maxCAFileBytes) else { continue }
            throw .unusableFile("\(key) \(path): \(problem)")
        }
    }

    /// The state directory's lock, the id store, open for appending, and the
    /// ids it remembers. Another bridge holding the directory is fatal (exit 78):
    /// both would carry out every press not safe to repeat. A state directory
    /// the bridge cannot write (lock or log) is found here, at start: fatal when
    /// an action is not safe to repeat (its presses could not be recorded), else
    /// a warning. One that other users may write to gets a warning.
    static func openStore(_ config: BridgeConfig, _ log: LogSink, environment: [String: String])
        throws(DaemonStartError) -> (StateDirectoryLock?, EventIdStore, [RememberedEvent]) {
        let directory = config.stateDirectory
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw .stateDirectory("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        if let warning = StateDirectoryCheck.writableByOthers(directory) { log.warning(warning) }
        let hasUnsafeAction = config.allActions.contains { !$0.action.repeatSafe }
        func cannotWrite(_ error: some Error) throws(DaemonStartError) {
            let reason = "cannot write in \(directory) (\(error)); presses of actions not safe to repeat could not be "
                + "recorded: make it writable by the bridge's user"
            guard !hasUnsafeAction else { throw .stateDirectory(reason) }
            log.warning(reason)
        }
        var lock: StateDirectoryLock?
        do { lock = try StateDirectoryLock.acquire(directory: directory) } catch {
            if case .heldByAnother = error { throw .stateDirectoryInUse("\(directory): \(error)") }
            if case .file(let failure) = error, let kind = failure.refusedKind {
                throw .unusableFile("the state directory's lock \(failure.path) is \(kind) (remove it; the bridge makes its own)")
            }
            try cannotWrite(error)
        }
        let store = EventIdStore(directory: directory, syncData: DiskFault.syncData(environment))
        var openingError: FileError?
        do { try store.openForAppending() } catch { openingError = error }
        if let openingError, let kind = openingError.refusedKind {
            // Planted or misplaced (a FIFO, a symbolic link): a restart cannot cure it.
            throw .unusableFile("the record of presses not safe to repeat, \(openingError.path), is \(kind) "
                                + "(remove it; the bridge makes its own)")
        }
        let loaded = store.load()
        if let problem = loaded.problem { log.warning(problem) }
        if let openingError { try cannotWrite(openingError) }
        return (lock, store, loaded.events)
    }

    static func mqttSettings(_ config: BridgeConfig, password: String?) -> MQTTShell.MQTTSettings {
        MQTTShell.MQTTSettings(
            host: config.mqtt.host, port: config.mqtt.port, clientId: config.mqtt.clientId,
            username: config.mqtt.username, password: password, tls: config.mqtt.tls.map { MQTTShell.MQTTSettings.TLS(caFile: $0.caFile, insecure: $0.insecure) },
            protocolVersion: config.mqtt.protocolVersion == .v311 ? .v311 : .v5, fallsBackToV311: config.mqtt.protocolVersion == nil,
            keepAliveSeconds: config.mqtt.keepaliveSeconds,
            status: MQTTShell.MQTTSettings.Status(topic: config.mqtt.statusTopic),
            maxPayloadBytes: config.mqtt.maxPayloadBytes
        )
    }

    static func notifier(_ environment: [String: String], _ log: LogSink) -> SystemdNotifier {
        do { return try SystemdNotifier(environment: environment) } catch {
            log.warning("systemd notification disabled: \(error)")
            return .disabled
        }
    }

    static func randomSeed() -> UInt64 {
        UInt64(bitPattern: MonotonicClock.nowUs()) ^ UInt64(bitPattern: WallClock.nowEpochMs()) << 20
            ^ UInt64(getpid())
    }

    static func ports(
        mqtt: MQTTClient, aivi: AiviLink, recorder: SyncingEventIdRecorder, options: DaemonOptions, log: LogSink,
        observers: DaemonObservers
    ) -> RuntimePorts {
        RuntimePorts(
            publishMQTT: { message in
                try mqtt.publish(topic: message.topic, payload: message.payload,
                                 qos: MQTTQoS(rawValue: Int32(message.qos)) ?? .atLeastOnce, retain: message.retain)
            },
            setSubscriptions: { topics in try mqtt.setSubscriptions(topics) },
            sendPatch: { request, completion in aivi.patch(request, completion: completion) },
            unsafeEventRecorder: recorder,
            reloadConfig: {
                let loaded = options.loadConfig()
                if loaded.config == nil {
                    // One log line per report line, so the caret stays under its column; one
                    // event for the rate limit, so no line of the report is held back alone.
                    let report = loaded.report.split(separator: "\n", omittingEmptySubsequences: false)
                    log.log(.error, lines: ["reload refused, keeping the running config:"] + report.map { "reload refused: \($0)" })
                }
                return loaded.config
            },
            log: { level, message in log.log(LogLevel(level), message: message) },
            observe: { observation in observers.observe(observation) },
            pressReachedMQTT: { eventId, latencyUs in
                observers.pressReachedMQTT(latencyUs: latencyUs)
                log.info("press \(eventId) reached MQTT \(latencyUs) µs after the stream delivered it")
            },
            beforeBatch: { log.holdLines() },
            afterBatch: { summary in
                observers.afterBatch(summary)
                log.flush()
            },
            openEventStream: { aivi.start() }
        )
    }
}

/// Everything that watches the runtime: systemd and metrics (the status view
/// asks the runtime when a request comes). What a batch observed is kept here
/// and handed over when the batch is done: one turn of the metrics' lock a
/// batch, not one per fact (the status view reads them between batches).
/// Called by the runtime on its loop's thread only, so what it keeps needs no lock.
final class DaemonObservers: @unchecked Sendable {
    let supervisor: DaemonSupervisor
    let metrics: DaemonMetrics
    /// This batch's facts so far, and whether it carried a press out (the loop's thread only).
    private let batch = ThreadOwnedState((facts: DaemonMetrics.Batch(), pressCarriedOut: false))

    init(supervisor: DaemonSupervisor, metrics: DaemonMetrics) {
        self.supervisor = supervisor
        self.metrics = metrics
    }

    func observe(_ observation: BridgeObservation) {
        if case .pressCarriedOut = observation { batch.pointer.pointee.pressCarriedOut = true }
        batch.pointer.pointee.facts.observations.append(observation)
    }

    func pressReachedMQTT(latencyUs: Int64) {
        batch.pointer.pointee.facts.pressToCommandLatenciesUs.append(latencyUs)
    }

    /// After each batch: systemd is told, the metrics counted.
    func afterBatch(_ summary: BatchSummary) {
        let batch = self.batch.pointer
        supervisor.afterBatch(summary, pressCarriedOut: batch.pointee.pressCarriedOut)
        batch.pointee.pressCarriedOut = false
        guard !batch.pointee.facts.isEmpty else { return }
        metrics.record(batch.pointee.facts)
        batch.pointee.facts.removeAll()
    }
}

/// Forwards the MQTT shell's events to the runtime; names the broker in every
/// connection problem and recognises two clients sharing one client id.
final class MQTTEventRelay: Sendable {
    private let relay: RuntimeRelay
    private let log: LogSink
    private let broker: String
    private let clientId: String
    private let login: BrokerLoginRefusal
    private let detector = ConditionLock(ClientIdConflictDetector())

    init(relay: RuntimeRelay, log: LogSink, settings: BridgeCore.MQTTSettings, configPath: String) {
        self.relay = relay
        self.log = log
        broker = settings.host.contains(":") ? "[\(settings.host)]:\(settings.port)" : "\(settings.host):\(settings.port)"
        clientId = settings.clientId
        login = BrokerLoginRefusal(username: settings.username, passwordFile: settings.passwordFile, settings: .config(path: configPath))
    }

    static func coreDrop(_ drop: MQTTDrop) -> ClientIdConflictDetector.Drop {
        if drop.isSessionTakenOver { return .sessionTakenOver }
        if drop.brokerReasonCode != nil { return .otherReason }
        return .unexplained
    }

    func forward(_ event: MQTTEvent) {
        switch event {
        case .connected:
            detector.withLock { $0.connected(nowMs: MonotonicClock.nowMs()) }
            log.debug("mqtt connected to \(broker)")
            relay.submit(.core(.mqttConnected))
        case .disconnected(let reason):
            log.warning("mqtt \(broker) disconnected: \(reason)")
            relay.submit(.core(.mqttDisconnected))
        case .dropped(let drop):
            if let finding = detector.withLock({ $0.disconnected(nowMs: MonotonicClock.nowMs(), drop: Self.coreDrop(drop)) }) {
                log.error(ClientIdConflictDetector.message(finding, clientId: clientId))
            }
        case .message(let message):
            relay.submitMQTTMessage(topic: message.topic, payload: message.payload)
        case .payloadTooLarge(let topic, let byteCount):
            relay.submit(.core(.mqttPayloadTooLarge(topic: topic, byteCount: byteCount)))
        case .fatal(let reason):
            log.error("mqtt \(broker): \(reason); recreating the client")
            _ = detector.withLock { $0.disconnected(nowMs: MonotonicClock.nowMs(), drop: .otherReason) }
            relay.submit(.core(.mqttDisconnected))
        case .refused(let refusal):
            log.error(login.text(broker: broker, refusal: refusal, withRetry: true))
            _ = detector.withLock { $0.disconnected(nowMs: MonotonicClock.nowMs(), drop: .otherReason) }
            relay.submit(.core(.mqttDisconnected))
        }
    }
}
