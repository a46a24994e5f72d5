import BridgeCore
import CMosquitto
import Glibc
import ShellSupport

/// What the client does in libmosquitto's callbacks (on the loop's thread).
extension MQTTClient {
    func didConnect(handle current: OpaquePointer, returnCode: Int32) {
        guard returnCode == 0 else {
            let reason = refusalText(returnCode)
            let unsupported = returnCode == Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue)
            let refusal = MQTTRefusal(code: returnCode, brokerText: reason, spokeMQTT5: currentSettings.protocolVersion == .v5,
                                      retryDelayMs: settings.fatalRetryDelayMs)
            if unsupported, canFallBack(state) {
                state.protocolFallbackReason = "broker refused MQTT 5 (\(reason))"
            } else {
                state.connectRefusal = refusal
            }
            return
        }
        let speaksV5 = currentSettings.protocolVersion == .v5
        let nowMs = settings.clock.monotonicMs()
        state.isConnected = true
        state.closedBeforeConnackCount = 0
        if speaksV5 { state.hasConnectedWithV5 = true }
        state.reconnects.connected(atMs: nowMs)
        state.awaitedAnswers = [:]
        state.lastProbeMs = nowMs
        state.lastReportedReason = nil
        let topics = state.subscriptions.values.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for topic in topics {
            mosquitto_subscribe(current, nil, topic, settings.subscribedQoS.rawValue)
        }
        if let status = settings.status {
            _ = try? Self.publish(on: current, topic: status.topic, payload: status.onlinePayload, qos: .atLeastOnce, retain: true)
        }
        handler(.connected)
    }

    /// libmosquitto's disconnect callback: `code` 0 for our own disconnect, an MQTT 5
    /// reason code for the broker's DISCONNECT, else a `MOSQ_ERR_*`. Reported only
    /// for a connection that was established.
    func didDisconnect(callbackCode code: Int32) {
        guard code != 0, state.isConnected else { return }
        let drop = MQTTDrop.from(callbackCode: code, spokeMQTT5: currentSettings.protocolVersion == .v5)
        if let reason = drop.brokerReason { state.brokerCloseReason = "the broker closed the connection: \(reason)" }
        handler(.dropped(drop))
    }

    func didReceive(_ message: MQTTMessage) {
        handler(.message(message))
    }

    /// A PUBLISH at a QoS above the one subscribed with (a QoS 2 flood without
    /// PUBREL would otherwise be kept whole by libmosquitto): the message is not
    /// delivered, the socket is shut at once (the PUBREC never leaves, the next read
    /// fails) and the loop ends this handle's life as a fatal protocol error, so
    /// recreating the handle frees what libmosquitto kept.
    func didReceiveAboveSubscribedQoS(handle current: OpaquePointer, qos: Int32) {
        let reason = "protocol violation: the broker sent a QoS \(qos) message above the QoS \(settings.subscribedQoS.rawValue) "
            + "subscribed with (libmosquitto would keep each one until a PUBREL); connection closed"
        if state.protocolViolation == nil { state.protocolViolation = reason }
        let socket = mosquitto_socket(current)
        if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    /// A TLS failure libmosquitto logged during a handshake (the most telling one of
    /// the handshake is kept for its reason). On the loop's thread, or on the resolving
    /// helper's while its connect runs: kept in the hand-off they share.
    func didLogTLSFailure(_ failure: MQTTTLSFailure) {
        resolverHandOff.withLock { handOff in
            handOff.tlsFailure = handOff.tlsFailure.map { $0.merged(with: failure) } ?? failure
        }
    }

    func didAcknowledgePublish(messageId: Int32) {
        if state.offlineMessageId == messageId { state.isOfflineAcknowledged = true }
        if !state.awaitedAnswers.isEmpty { state.awaitedAnswers[messageId] = nil }
    }

    /// Whether a refusal of MQTT 5 may still switch this client to 3.1.1.
    func canFallBack(_ state: MQTTClientState) -> Bool {
        settings.fallsBackToV311 && settings.protocolVersion == .v5 && !state.hasFallenBackToV311 && !state.hasConnectedWithV5
    }

    private func refusalText(_ code: Int32) -> String {
        let text = currentSettings.protocolVersion == .v5 ? mosquitto_reason_string(code) : mosquitto_connack_string(code)
        return text.map { String(cString: $0) } ?? "code \(code)"
    }
}
