import CMosquitto

/// Creating and configuring one libmosquitto client handle from `MQTTSettings`.
enum MosquittoHandle {
    /// A new, configured handle whose callbacks reach `client`. Not in libmosquitto's
    /// threaded mode: only the loop's thread uses it (`MQTTClient`), publishes write at once.
    static func make(settings: MQTTSettings, client: MQTTClient) throws -> OpaquePointer {
        MosquittoLibrary.ensureInitialised()
        let userdata = Unmanaged.passUnretained(client).toOpaque()
        guard let handle = mosquitto_new(settings.clientId, true, userdata) else {
            throw MQTTError(operation: "create client", message: "mosquitto_new refused the client id or ran out of memory")
        }
        do {
            try configure(handle, settings: settings)
        } catch {
            mosquitto_destroy(handle)
            throw error
        }
        return handle
    }

    /// Resets `handle` to a fresh client (after a fatal error) and configures it again.
    static func recreate(_ handle: OpaquePointer, settings: MQTTSettings, client: MQTTClient) throws {
        let userdata = Unmanaged.passUnretained(client).toOpaque()
        try MQTTError.check(mosquitto_reinitialise(handle, settings.clientId, true, userdata), "recreate client")
        try configure(handle, settings: settings)
    }

    private static func configure(_ handle: OpaquePointer, settings: MQTTSettings) throws {
        try MQTTError.check(mosquitto_threaded_set(handle, false), "threaded mode")
        let version = settings.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        try MQTTError.check(mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(version)), "protocol version")
        try MQTTError.check(mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1), "TCP_NODELAY")
        try MQTTError.check(mosquitto_max_inflight_messages_set(handle, UInt32(max(1, settings.maxInflightMessages))), "max inflight")
        if let username = settings.username {
            try MQTTError.check(mosquitto_username_pw_set(handle, username, settings.password), "credentials")
        }
        if let status = settings.status {
            let rc = status.offlinePayload.withUnsafeBytes { bytes in
                mosquitto_will_set(handle, status.topic, Int32(bytes.count), bytes.baseAddress, MQTTQoS.atLeastOnce.rawValue, true)
            }
            try MQTTError.check(rc, "will")
        }
        if let tls = settings.tls { try configureTLS(handle, tls) }
        MosquittoCallbacks.install(on: handle)
    }

    /// TLS always verifies the peer (certificate chain and host name) unless
    /// `insecure`; without a CA file, against the system's CA directory.
    private static func configureTLS(_ handle: OpaquePointer, _ tls: MQTTSettings.TLS) throws {
        let directory: String? = tls.caFile == nil ? tls.caDirectory : nil
        try MQTTError.check(mosquitto_tls_set(handle, tls.caFile, directory, nil, nil, nil),
                            tls.caFile == nil ? "TLS CA directory \(tls.caDirectory)" : "TLS CA file")
        let verifyPeer: Int32 = tls.insecure ? 0 : 1
        try MQTTError.check(mosquitto_tls_opts_set(handle, verifyPeer, nil, nil), "TLS verification")
        try MQTTError.check(mosquitto_tls_insecure_set(handle, tls.insecure), "TLS host name verification")
    }
}
