import BridgeCore
import CMosquitto
import Glibc
import ShellSupport

/// The loop's side: connection attempts, backoff, fatal errors and recreation, as
/// a `LoopSource` of the loop that drives the client.
extension MQTTClient: LoopSource {
    /// How one client handle's life ended.
    enum LoopOutcome {
        case stopped
        case fatal(reason: String)
        /// The broker refused the CONNECT (its CONNACK said why): as fatal, reported apart.
        case refused(MQTTRefusal)
        /// The broker refused MQTT 5: recreate the client speaking 3.1.1, at once.
        case fallBackToV311(reason: String)
    }

    /// How often an idle connection is looked at for its keepalive (`mosquitto_loop_misc`
    /// sends the PINGREQ): a quarter of the keepalive, at least a second; the broker
    /// allows one and a half.
    var keepaliveCheckMs: Int64 {
        max(1_000, Int64(max(1, settings.keepAliveSeconds)) * 1_000 / 4)
    }

    /// How long a stop waits for the DISCONNECT to be written before giving up.
    static let disconnectGraceMs: Int64 = 1_000

    /// What the loop must watch for this client now.
    public func loopWants(nowMs: Int64) -> LoopWants {
        let (phase, isStopping, isConnected, stopDeadlineMs, isDisconnectRequested, kept) =
            (state.phase, state.isStopping, state.isConnected, state.stopDeadlineMs, state.isDisconnectRequested, state.linkInterests)
        switch phase {
        case .idle:
            return LoopWants(deadlineMs: nowMs)
        case .resolving:
            return LoopWants(deadlineMs: nowMs + Self.resolverCheckMs)
        case .waitingToReconnect(let untilMs), .waitingAfterFatal(let untilMs):
            return LoopWants(deadlineMs: isStopping ? nowMs : untilMs)
        case .stopped:
            return LoopWants()
        case .linked(let attemptStartedMs):
            guard let current = handle else { return LoopWants(deadlineMs: nowMs) }
            let descriptor = mosquitto_socket(current)
            guard descriptor >= 0 else { return LoopWants(deadlineMs: nowMs) }
            var deadlineMs = nowMs + keepaliveCheckMs
            if !isConnected { deadlineMs = min(deadlineMs, attemptStartedMs + Int64(settings.connectTimeoutMs) + 1) }
            if isConnected, let silenceDeadlineMs { deadlineMs = min(deadlineMs, silenceDeadlineMs) }
            if isStopping, let stopDeadlineMs {
                deadlineMs = min(deadlineMs, stopDeadlineMs + (isDisconnectRequested ? Self.disconnectGraceMs : 0))
            }
            let interest = LoopInterest(descriptor: descriptor, wantsWrite: mosquitto_want_write(current))
            guard kept.count == 1, kept[0] == interest else {
                state.linkInterests = [interest]
                return LoopWants(interests: [interest], deadlineMs: deadlineMs)
            }
            return LoopWants(interests: kept, deadlineMs: deadlineMs)
        }
    }

    /// Reads, writes, keeps alive; starts, times out, retries and ends attempts.
    public func loopService(ready: [LoopReadiness], nowMs: Int64) {
        let (phase, isStopping, undrainedReads) = (state.phase, state.isStopping, state.undrainedReads)
        switch phase {
        case .idle:
            beginAttempt(nowMs: nowMs)
        case .resolving:
            if isStopping, abandonResolving() { return finish() }
            finishResolving(nowMs: nowMs)
        case .waitingToReconnect(let untilMs):
            if isStopping { return finish() }
            if nowMs >= untilMs { beginAttempt(nowMs: nowMs) }
        case .waitingAfterFatal(let untilMs):
            if isStopping { return finish() }
            guard nowMs >= untilMs else { return }
            if let error = recreateHandle() { handler(.fatal(reason: error.description)) }
            beginAttempt(nowMs: nowMs)
        case .linked(let attemptStartedMs):
            serviceLink(ready: ready, attemptStartedMs: attemptStartedMs, undrainedReads: undrainedReads, nowMs: nowMs)
        case .stopped:
            return
        }
    }

    /// One pass over a live socket, in `mosquitto_loop`'s order: read, write, misc.
    private func serviceLink(ready: [LoopReadiness], attemptStartedMs: Int64, undrainedReads: Int, nowMs: Int64) {
        guard let current = handle else { return finish() }
        let isReadable = ready.contains { $0.isReadable }
        let isWritable = ready.contains { $0.isWritable }
        var returnCode = MOSQ_ERR_SUCCESS.rawValue
        var isDrained = false
        if isReadable {
            (returnCode, isDrained) = readPackets(current, untilDrained: undrainedReads >= Self.readsBeforeDraining)
            Self.acknowledgeNextSegmentAtOnce(current)
        }
        if returnCode == MOSQ_ERR_SUCCESS.rawValue, mosquitto_socket(current) >= 0, isWritable || mosquitto_want_write(current) {
            returnCode = mosquitto_loop_write(current, 1)
        }
        if returnCode == MOSQ_ERR_SUCCESS.rawValue { returnCode = mosquitto_loop_misc(current) }
        guard returnCode == MOSQ_ERR_SUCCESS.rawValue else { return attemptFailed(returnCode: returnCode, nowMs: nowMs) }
        if isReadable {
            state.socketReadPasses += 1
            state.undrainedReads = isDrained ? 0 : min(state.undrainedReads + 1, Self.readsBeforeDraining)
        }
        let (isStopping, isConnected) = (state.isStopping, state.isConnected)
        if isStopping {
            // Connected: the offline status first (acknowledged or timed out), then
            // DISCONNECT; while still connecting there is nothing to say goodbye to.
            guard isConnected else { return finish() }
            serviceStop(current, nowMs: nowMs)
            return
        }
        if isConnected {
            if let silenceDeadlineMs, nowMs >= silenceDeadlineMs { return brokerFellSilent(nowMs: nowMs) }
            if isProbeDue(nowMs: nowMs) { sendProbe(on: current, nowMs: nowMs) }
        }
        if !isConnected, nowMs - attemptStartedMs > Int64(settings.connectTimeoutMs) {
            attemptFailed(returnCode: MOSQ_ERR_SUCCESS.rawValue, nowMs: nowMs,
                          timeoutReason: "no answer within \(settings.connectTimeoutMs) ms (broker unreachable or not answering)")
        }
    }

    /// Most packets read in one service: a flood is read in runs, and the loop's other
    /// sources (and the owner's batch) get their turn in between.
    static let maxPacketsPerService = 128

    /// Readable passes in a row that read one packet each without the socket running
    /// dry before a pass reads until it does: a flood is then read in runs of up to
    /// `maxPacketsPerService`, while a quiet link (a PUBACK, an echo, one state
    /// message a wake) costs no `read` that only says EAGAIN, on most passes.
    static let readsBeforeDraining = 4

    /// Reads one packet (`mosquitto_loop_read` reads one per call, more while its
    /// queues ask for them, and all TLS has already decrypted: what is left is in the
    /// socket, so the level-triggered poll comes back for it), or, `untilDrained`,
    /// packets until the socket says EAGAIN or `maxPacketsPerService`. Returns
    /// libmosquitto's code and whether the socket was seen dry (or closed).
    private func readPackets(_ current: OpaquePointer, untilDrained: Bool) -> (Int32, isDrained: Bool) {
        let calls = untilDrained ? Self.maxPacketsPerService : 1
        for call in 0..<calls {
            errno = 0
            let returnCode = mosquitto_loop_read(current, 1)
            if returnCode != MOSQ_ERR_SUCCESS.rawValue || errno == EAGAIN || mosquitto_socket(current) < 0 {
                // A run that found only the packet that woke it: the link is quiet again.
                return (returnCode, call <= 1 || returnCode != MOSQ_ERR_SUCCESS.rawValue)
            }
        }
        return (MOSQ_ERR_SUCCESS.rawValue, false)
    }

    private func serviceStop(_ current: OpaquePointer, nowMs: Int64) {
        let (disconnectNow, giveUp) = { (state: inout MQTTClientState) -> (Bool, Bool) in
            let deadlineMs = state.stopDeadlineMs ?? nowMs
            let giveUp = state.isDisconnectRequested && nowMs >= deadlineMs + Self.disconnectGraceMs
            guard !state.isDisconnectRequested, state.isOfflineAcknowledged || nowMs >= deadlineMs else { return (false, giveUp) }
            state.isDisconnectRequested = true
            state.stopDeadlineMs = nowMs
            return (true, false)
        }(&state)
        if disconnectNow { mosquitto_disconnect(current) }
        if giveUp { finish() }
    }

    /// How often the loop looks whether the resolving helper is done.
    static let resolverCheckMs: Int64 = 20

    /// Starts a connection attempt (none once stopping): on the loop to a literal
    /// address, else on a helper thread (`getaddrinfo` blocks).
    private func beginAttempt(nowMs: Int64) {
        if state.isStopping { return finish() }
        guard let current = handle else { return finish() }
        if !HostAddress.isLiteral(currentSettings.host), startResolver() { return }
        state.phase = .linked(attemptStartedMs: nowMs)
        let returnCode = Self.connect(current, settings: currentSettings)
        if returnCode != MOSQ_ERR_SUCCESS.rawValue { attemptFailed(returnCode: returnCode, nowMs: nowMs) }
    }

    /// Starts the helper that connects to a broker's name; false when no thread can be
    /// had (the attempt then runs on the loop). The helper touches the handle (the
    /// loop leaves it alone while `.resolving`) and `resolverHandOff`, nothing else.
    private func startResolver() -> Bool {
        guard let handle else { return false }
        // Handed to the helper: the loop leaves the handle alone until it is done.
        nonisolated(unsafe) let current = handle
        state.phase = .resolving
        let attemptSettings = currentSettings
        let handOff = resolverHandOff
        handOff.withLock { $0 = ResolverHandOff(tlsFailure: $0.tlsFailure) }
        do {
            resolver = try ShellThread {
                NameResolver.shared.waitFaultDelay()
                let returnCode = Self.connect(current, settings: attemptSettings)
                let isAbandoned = handOff.withLock { handOff -> Bool in
                    if !handOff.isAbandoned { handOff.returnCode = returnCode }
                    return handOff.isAbandoned
                }
                if isAbandoned { mosquitto_destroy(current) }
            }
            return true
        } catch {
            state.phase = .idle
            return false
        }
    }

    /// A stop while the helper is still in its lookup (a slow DNS server): the stop
    /// does not wait for it (issue 38 item 6: SIGTERM took 19 s). The helper is
    /// detached and given the handle to destroy once its connect returns; the client
    /// forgets it. False when the helper is done already (the usual path then).
    private func abandonResolving() -> Bool {
        let isAbandoned = resolverHandOff.withLock { handOff -> Bool in
            guard handOff.returnCode == nil else { return false }
            handOff.isAbandoned = true
            return true
        }
        guard isAbandoned else { return false }
        handle = nil
        resolver?.detach()
        resolver = nil
        return true
    }

    /// The helper is done: the attempt goes on on the loop, timed from now.
    private func finishResolving(nowMs: Int64) {
        guard let returnCode = resolverHandOff.withLock({ $0.returnCode }) else { return }
        resolver?.join()
        resolver = nil
        resolverHandOff.withLock { $0.returnCode = nil }
        state.phase = .linked(attemptStartedMs: nowMs)
        if returnCode != MOSQ_ERR_SUCCESS.rawValue { attemptFailed(returnCode: returnCode, nowMs: nowMs) }
    }

    /// An attempt or a connection ended: stop, fall back, wait after a fatal error, or back off.
    private func attemptFailed(returnCode: Int32, nowMs: Int64, timeoutReason: String? = nil) {
        let brokerReason = state.brokerCloseReason
        state.brokerCloseReason = nil
        let tlsFailure = resolverHandOff.withLock { handOff in
            defer { handOff.tlsFailure = nil }
            return handOff.tlsFailure
        }
        let reason = timeoutReason ?? brokerReason ?? failureText(returnCode: returnCode, tlsFailure: tlsFailure)
        guard let outcome = outcomeOfFailure(returnCode: returnCode, reason: reason) else {
            report(disconnectReason: reason)
            let delayMs = state.reconnects.reconnectDelayMs(afterEndAtMs: nowMs)
            state.phase = .waitingToReconnect(untilMs: nowMs + delayMs)
            return
        }
        state.reconnects.connectionEnded(atMs: nowMs)
        markDisconnected()
        switch outcome {
        case .stopped:
            finish()
        case .fallBackToV311(let reason):
            state.hasFallenBackToV311 = true
            handler(.disconnected(reason: "\(reason); speaking MQTT 3.1.1 from now on: the broker is no longer told the "
                + "payload limit, so a huge message is bounded only by the broker's message_size_limit"))
            if let error = recreateHandle() { handler(.fatal(reason: error.description)) }
            beginAttempt(nowMs: nowMs)
        case .fatal(let reason):
            handler(.fatal(reason: reason))
            waitAfterFatal(delayMs: state.reconnects.fatalDelayMs(), nowMs: nowMs)
        case .refused(let refusal):
            let delayMs = state.reconnects.fatalDelayMs()
            handler(.refused(refusal.retrying(inMs: Int(delayMs))))
            waitAfterFatal(delayMs: delayMs, nowMs: nowMs)
        }
    }

    /// The broker left a packet unanswered for `silentBrokerMs` (`MQTTClient+Silence`):
    /// the connection goes with the handle (nothing it had not sent, nor any
    /// unacknowledged message, is resent on the next connection: a late command is
    /// worse than none), the owner hears `.disconnected`, and the client reconnects
    /// with its backoff.
    private func brokerFellSilent(nowMs: Int64) {
        let reason = "the broker answered nothing for \(Self.silentBrokerMs) ms (stalled, its connection still open); "
            + "connection dropped with what was not yet acknowledged, reconnecting"
        let delayMs = state.reconnects.reconnectDelayMs(afterEndAtMs: nowMs)
        report(disconnectReason: reason)
        if let error = recreateHandle() { handler(.fatal(reason: error.description)) }
        state.phase = .waitingToReconnect(untilMs: nowMs + delayMs)
    }

    private func waitAfterFatal(delayMs: Int64, nowMs: Int64) {
        state.phase = .waitingAfterFatal(untilMs: nowMs + delayMs)
    }

    private func finish() {
        markDisconnected()
        state.phase = .stopped
    }

    /// Whether the failure ends this handle's life (stop, fatal, fallback), else nil to retry.
    private func outcomeOfFailure(returnCode: Int32, reason: String) -> LoopOutcome? {
        let closedBeforeConnack = returnCode == MOSQ_ERR_CONN_LOST.rawValue
        defer { state.connectRefusal = nil; state.protocolFallbackReason = nil; state.protocolViolation = nil }
        var fallback = state.protocolFallbackReason
        if fallback == nil, closedBeforeConnack, !state.isConnected, canFallBack(state) {
            state.closedBeforeConnackCount += 1
            if state.closedBeforeConnackCount >= Self.closesBeforeFallback {
                fallback = "broker closed the connection \(Self.closesBeforeFallback) times right after an MQTT 5 CONNECT"
            }
        }
        let violation = state.protocolViolation.map { LoopOutcome.fatal(reason: $0) }
        let (isStopping, refusal) = (state.isStopping, violation ?? state.connectRefusal.map { .refused($0) })
        if isStopping { return .stopped }
        if let fallback { return .fallBackToV311(reason: fallback) }
        if let refusal { return refusal }
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
    private static func connect(_ handle: OpaquePointer, settings current: MQTTSettings) -> Int32 {
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
        state.isConnected = false
        state.awaitedAnswers = [:]
        let isNew = state.lastReportedReason != reason
        state.lastReportedReason = reason
        if isNew { handler(.disconnected(reason: reason)) }
    }

    private func markDisconnected() {
        state.isConnected = false
        state.reconnects.forgetConnection()
        state.lastReportedReason = nil
        state.awaitedAnswers = [:]
    }

    private func recreateHandle() -> MQTTError? {
        guard let current = handle else { return nil }
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
