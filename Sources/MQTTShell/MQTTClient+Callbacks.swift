import CMosquitto

/// What the client does in libmosquitto's callbacks (network thread, handle lock not held).
extension MQTTClient {
    func didConnect(handle current: OpaquePointer, returnCode: Int32) {
        guard returnCode == 0 else {
            let reason = refusalText(returnCode)
            let unsupported = returnCode == Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue)
            state.withLock { state in
                if unsupported, canFallBack(state) {
                    state.protocolFallbackReason = "broker refused MQTT 5 (\(reason))"
                } else {
                    state.connectRefusal = "broker refused the connection: \(reason)"
                }
            }
            return
        }
        let speaksV5 = currentSettings.protocolVersion == .v5
        let topics = state.withLock { state in
            state.isConnected = true
            state.closedBeforeConnackCount = 0
            if speaksV5 { state.hasConnectedWithV5 = true }
            state.failedAttempts = 0
            state.lastReportedReason = nil
            return state.subscriptions
        }
        for topic in topics {
            mosquitto_subscribe(current, nil, topic, settings.subscriptionQoS.rawValue)
        }
        if let status = settings.status {
            _ = try? Self.publish(on: current, topic: status.topic, payload: status.onlinePayload, qos: .atLeastOnce, retain: true)
        }
        handler(.connected)
    }

    func didReceive(_ message: MQTTMessage) {
        handler(.message(message))
    }

    func didAcknowledgePublish(messageId: Int32) {
        state.withLock { state in
            if state.offlineMessageId == messageId { state.isOfflineAcknowledged = true }
        }
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
