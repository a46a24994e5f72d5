import BridgeCore
import CMosquitto
import ShellSupport

/// The network thread: connection attempts, backoff, fatal errors and recreation.
extension MQTTClient {
    /// How one client handle's life ended.
    enum LoopOutcome {
        case stopped
        case fatal(reason: String)
        /// The broker refused MQTT 5: recreate the client speaking 3.1.1, at once.
        case fallBackToV311(reason: String)
    }

    /// Runs clients until `stop()`; after a fatal error reports it, waits and recreates.
    func runSupervisor() {
        var fatalFailures = 0
        while true {
            switch runClient() {
            case .stopped:
                return
            case .fallBackToV311(let reason):
                markDisconnected()
                state.withLock { $0.hasFallenBackToV311 = true }
                handler(.disconnected(reason: "\(reason); speaking MQTT 3.1.1 from now on: the broker is no longer told the "
                    + "payload limit, so a huge message is bounded only by the broker's message_size_limit"))
            case .fatal(let reason):
                markDisconnected()
                handler(.fatal(reason: reason))
                if waitUnlessStopping(ms: nextDelayMs(Self.fatalBackoff(settings), retry: fatalFailures)) { return }
                fatalFailures = min(fatalFailures + 1, 64)
            }
            if let error = recreateHandle() {
                handler(.fatal(reason: error.description))
            }
        }
    }

    /// Connects, loops and reconnects with one handle until stopped or a fatal error.
    private func runClient() -> LoopOutcome {
        guard var returnCode = connectUnlessStopping({ connect($0) }) else {
            markDisconnected()
            return .stopped
        }
        while true {
            let attemptStartedMs = MonotonicClock.nowMs()
            var timeoutReason: String?
            while returnCode == MOSQ_ERR_SUCCESS.rawValue {
                let (isStopping, isConnected) = state.withLock { ($0.isStopping, $0.isConnected) }
                // Connected, stop() disconnects (after the offline status); while still
                // connecting there is nothing to say goodbye to.
                if isStopping, !isConnected { return .stopped }
                if !isConnected, MonotonicClock.nowMs() - attemptStartedMs > Int64(settings.connectTimeoutMs) {
                    timeoutReason = "no answer within \(settings.connectTimeoutMs) ms (broker unreachable or not answering)"
                    break
                }
                returnCode = withHandle({ handle in
                    let code = mosquitto_loop(handle, 1000, 1)
                    Self.acknowledgeNextSegmentAtOnce(handle)
                    return code
                }) ?? MOSQ_ERR_NO_CONN.rawValue
            }
            let (brokerReason, tlsFailure) = state.withLock { state in
                defer { state.brokerCloseReason = nil; state.tlsFailure = nil }
                return (state.brokerCloseReason, state.tlsFailure)
            }
            let reason = timeoutReason ?? brokerReason ?? failureText(returnCode: returnCode, tlsFailure: tlsFailure)
            if let outcome = outcomeOfFailure(returnCode: timeoutReason == nil ? returnCode : MOSQ_ERR_SUCCESS.rawValue, reason: reason) {
                markDisconnected()
                return outcome
            }
            countShortConnection()
            report(disconnectReason: reason)
            if waitUnlessStopping(ms: nextReconnectDelayMs()) { return .stopped }
            guard let nextCode = connectUnlessStopping({ connect($0) }) else { return .stopped }
            returnCode = nextCode
        }
    }

    /// Whether the failure ends this handle's life (stop, fatal, fallback), else nil to retry.
    private func outcomeOfFailure(returnCode: Int32, reason: String) -> LoopOutcome? {
        let closedBeforeConnack = returnCode == MOSQ_ERR_CONN_LOST.rawValue
        let (isStopping, refusal, fallback) = state.withLock { state in
            defer { state.connectRefusal = nil; state.protocolFallbackReason = nil; state.protocolViolation = nil }
            var fallback = state.protocolFallbackReason
            if fallback == nil, closedBeforeConnack, !state.isConnected, canFallBack(state) {
                state.closedBeforeConnackCount += 1
                if state.closedBeforeConnackCount >= Self.closesBeforeFallback {
                    fallback = "broker closed the connection \(Self.closesBeforeFallback) times right after an MQTT 5 CONNECT"
                }
            }
            return (state.isStopping, state.protocolViolation ?? state.connectRefusal, fallback)
        }
        if isStopping { return .stopped }
        if let fallback { return .fallBackToV311(reason: fallback) }
        if let refusal { return .fatal(reason: refusal) }
        if Self.isFatal(returnCode) { return .fatal(reason: reason) }
        return nil
    }

    /// Consecutive closes before any CONNACK that mean "this broker does not speak MQTT 5"
    /// (one could be a broker restarting; CONNACK "unsupported protocol version" counts at once).
    static let closesBeforeFallback = 3

    /// One non-blocking connection attempt (its end is watched by the loop and bounded
    /// by `connectTimeoutMs`). MQTT 5 sends a Maximum Packet Size in its CONNECT so the
    /// broker never sends a packet the bridge would drop anyway. libmosquitto 2.0 only
    /// takes CONNECT properties on its blocking connect, which then waits for the
    /// system's TCP timeout (a minute) and cannot be interrupted; but it stores them
    /// in the handle before anything else, and its asynchronous connect sends the
    /// stored ones. So the properties go in through `mosquitto_connect_bind_v5` with an
    /// invalid port (refused as MOSQ_ERR_INVAL before any connecting), then
    /// `mosquitto_connect_async` connects.
    private func connect(_ handle: OpaquePointer) -> Int32 {
        let current = currentSettings
        if current.protocolVersion == .v5 {
            var properties: OpaquePointer?
            defer { mosquitto_property_free_all(&properties) }
            let packetLimit = UInt32(clamping: current.maxPayloadBytes + MQTTSettings.packetOverheadBytes)
            let added = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), packetLimit)
            guard added == MOSQ_ERR_SUCCESS.rawValue else { return added }
            let stored = mosquitto_connect_bind_v5(handle, current.host, -1, Int32(current.keepAliveSeconds), nil, properties)
            guard stored == MOSQ_ERR_INVAL.rawValue else { return stored == MOSQ_ERR_SUCCESS.rawValue ? MOSQ_ERR_INVAL.rawValue : stored }
        }
        return mosquitto_connect_async(handle, current.host, Int32(current.port), Int32(current.keepAliveSeconds))
    }

    /// libmosquitto's text for a return code; for a TLS error, what its log said
    /// (host name or chain) with the fix.
    private func failureText(returnCode: Int32, tlsFailure: MQTTTLSFailure?) -> String {
        guard returnCode == MOSQ_ERR_TLS.rawValue, let tlsFailure else { return MQTTError.text(forCode: returnCode) }
        let current = currentSettings
        return tlsFailure.reason(host: current.host, port: current.port, tls: current.tls)
    }

    /// Return codes after which libmosquitto's own loop gives up too.
    static func isFatal(_ returnCode: Int32) -> Bool {
        let fatalCodes: [mosq_err_t] = [
            MOSQ_ERR_NOMEM, MOSQ_ERR_PROTOCOL, MOSQ_ERR_INVAL, MOSQ_ERR_NOT_FOUND, MOSQ_ERR_TLS,
            MOSQ_ERR_PAYLOAD_SIZE, MOSQ_ERR_NOT_SUPPORTED, MOSQ_ERR_AUTH, MOSQ_ERR_ACL_DENIED,
            MOSQ_ERR_UNKNOWN, MOSQ_ERR_EAI, MOSQ_ERR_PROXY, MOSQ_ERR_CONN_REFUSED,
        ]
        return fatalCodes.contains { $0.rawValue == returnCode }
    }

    /// Reports a disconnection once per change of reason (not on every attempt).
    private func report(disconnectReason reason: String) {
        let isNew = state.withLock { state in
            state.isConnected = false
            defer { state.lastReportedReason = reason }
            return state.lastReportedReason != reason
        }
        if isNew { handler(.disconnected(reason: reason)) }
    }

    private func markDisconnected() {
        state.withLock { state in
            state.isConnected = false
            state.connectedAtMs = nil
            state.lastReportedReason = nil
        }
    }

    /// A connection that lasts this long resets the backoff; one the broker ends sooner
    /// counts as a failed attempt (a broker accepting then dropping every connection
    /// was otherwise reconnected to every `reconnectDelayMinMs`, forever). The same
    /// second as the daemon's quick drop (`ClientIdConflictDetector.quickDropMs`): two
    /// bridges with one client id kick each other, and the one backing off is dropped
    /// within it each time (the other reconnects at once), so it still says so.
    static let stableConnectionMs: Int64 = 1_000

    /// After an established connection ended: a short one raises the backoff.
    private func countShortConnection() {
        state.withLock { state in
            guard let connectedAtMs = state.connectedAtMs else { return }
            state.connectedAtMs = nil
            let isShort = MonotonicClock.nowMs() - connectedAtMs < Self.stableConnectionMs
            state.shortConnections = isShort ? state.shortConnections + 1 : 0
            state.failedAttempts = max(state.failedAttempts, state.shortConnections)
        }
    }

    /// The reconnect backoff (the one `Backoff`).
    static func reconnectBackoff(_ settings: MQTTSettings) -> Backoff {
        Backoff(initialMs: Int64(settings.reconnectDelayMinMs), capMs: Int64(settings.reconnectDelayMaxMs))
    }

    /// The backoff before recreating a client after a fatal error.
    static func fatalBackoff(_ settings: MQTTSettings) -> Backoff {
        Backoff(initialMs: Int64(settings.fatalRetryDelayMs), capMs: Int64(max(settings.fatalRetryDelayMs, MQTTSettings.maxFatalRetryDelayMs)))
    }

    /// The next reconnect delay, from the consecutive failed attempts.
    private func nextReconnectDelayMs() -> Int {
        let attempts = state.withLock { state in
            defer { state.failedAttempts = min(state.failedAttempts + 1, 64) }
            return state.failedAttempts
        }
        return nextDelayMs(Self.reconnectBackoff(settings), retry: attempts)
    }

    /// `backoff`'s delay for `retry`, jittered from the client's seeded generator.
    func nextDelayMs(_ backoff: Backoff, retry: Int) -> Int {
        Int(clamping: state.withLock { backoff.delayMs(retry: retry, using: &$0.jitter) })
    }

    /// Waits `ms` or until `stop()`; returns whether stopping.
    private func waitUnlessStopping(ms: Int) -> Bool {
        state.wait(timeoutMs: ms) { $0.isStopping }
    }

    private func withHandle(_ body: (OpaquePointer) -> Int32) -> Int32? {
        // The handle is only replaced on this thread, so reading it once is enough; the
        // lock is not held across the (blocking) call.
        guard let current = handle.withLock({ $0 }) else { return nil }
        return body(current)
    }

    /// Starts a connection attempt unless `stop()` began; holds the handle lock so that
    /// `stop()`'s disconnect cannot slip in between the check and the attempt.
    private func connectUnlessStopping(_ attempt: (OpaquePointer) -> Int32) -> Int32? {
        handle.withLock { current in
            guard let current, !state.withLock({ $0.isStopping }) else { return nil }
            return attempt(current)
        }
    }

    private func recreateHandle() -> MQTTError? {
        handle.withLock { current -> MQTTError? in
            guard let current else { return nil }
            do {
                try MosquittoHandle.recreate(current, settings: currentSettings, client: self)
                return nil
            } catch let error as MQTTError {
                return error
            } catch {
                return MQTTError(operation: "recreate client", message: "\(error)")
            }
        }
    }
}
