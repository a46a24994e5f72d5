import CMosquitto

/// The C callbacks libmosquitto calls on the loop thread; each finds its `MQTTClient`
/// through the userdata pointer (unretained: the client outlives its handle).
enum MosquittoCallbacks {
    static func install(on handle: OpaquePointer) {
        mosquitto_connect_callback_set(handle) { mosq, userdata, returnCode in
            guard let mosq else { return }
            MosquittoCallbacks.client(userdata)?.didConnect(handle: mosq, returnCode: returnCode)
        }
        mosquitto_message_callback_set(handle) { mosq, userdata, message in
            guard let mosq, let client = MosquittoCallbacks.client(userdata), let message else { return }
            guard message.pointee.qos <= client.settings.subscribedQoS.rawValue else {
                return client.didReceiveAboveSubscribedQoS(handle: mosq, qos: message.pointee.qos)
            }
            let byteCount = Int(max(0, message.pointee.payloadlen))
            guard byteCount <= client.settings.maxPayloadBytes else {
                let topic = message.pointee.topic.map { String(cString: $0) } ?? ""
                client.handler(.payloadTooLarge(topic: topic, byteCount: byteCount))
                return
            }
            client.didReceive(MosquittoCallbacks.copy(message.pointee))
        }
        // libmosquitto 2.0 reports an incoming QoS 2 PUBLISH, and why a TLS handshake
        // failed, only in its log (see MosquittoLogLine).
        mosquitto_log_callback_set(handle) { mosq, userdata, level, line in
            guard let mosq, let line, let client = MosquittoCallbacks.client(userdata) else { return }
            if level == MOSQ_LOG_ERR, let failure = MosquittoLogLine.tlsFailure(line) { return client.didLogTLSFailure(failure) }
            guard level == MOSQ_LOG_DEBUG, let qos = MosquittoLogLine.receivedPublishQoS(line),
                  qos > client.settings.subscribedQoS.rawValue else { return }
            client.didReceiveAboveSubscribedQoS(handle: mosq, qos: qos)
        }
        mosquitto_disconnect_callback_set(handle) { _, userdata, code in
            MosquittoCallbacks.client(userdata)?.didDisconnect(callbackCode: code)
        }
        mosquitto_publish_callback_set(handle) { _, userdata, messageId in
            MosquittoCallbacks.client(userdata)?.didAcknowledgePublish(messageId: messageId)
        }
        mosquitto_unsubscribe_callback_set(handle) { _, userdata, messageId in
            MosquittoCallbacks.client(userdata)?.didAnswer(messageId: messageId)
        }
    }

    private static func client(_ userdata: UnsafeMutableRawPointer?) -> MQTTClient? {
        guard let userdata else { return nil }
        return Unmanaged<MQTTClient>.fromOpaque(userdata).takeUnretainedValue()
    }

    /// Copies topic and payload out of libmosquitto's buffers (they are freed after the callback).
    private static func copy(_ message: mosquitto_message) -> MQTTMessage {
        let topic = message.topic.map { String(cString: $0) } ?? ""
        var payload: [UInt8] = []
        if let bytes = message.payload, message.payloadlen > 0 {
            let buffer = UnsafeRawBufferPointer(start: bytes, count: Int(message.payloadlen))
            payload = Array(buffer)
        }
        return MQTTMessage(topic: topic, payload: payload, isRetained: message.retain)
    }
}
