/// The top level and the settings sections: `aivi`, `mqtt`, `status`, `timing`.
extension ConfigDecoder {
    mutating func decodeBridgeConfig(_ root: YAMLNode) -> BridgeConfig {
        var config = BridgeConfig()
        guard let top = section(root, name: ConfigSection.topLevelName, allowedKeys: ConfigKeys.topLevel) else { return config }
        if let aivi = top.value("aivi") {
            config.aivi = decodeAivi(aivi)
        } else {
            error("missing required key 'aivi' at the top level (it names the API token: 'token_file' or 'token_env')",
                  at: top.location)
        }
        if let mqtt = top.value("mqtt") { config.mqtt = decodeMQTT(mqtt) }
        if let directory = string(top, "state_dir") { config.stateDirectory = directory }
        if let aivi = top.value("aivi") { Self.recordLocations(of: aivi, ["token_file", "token_env", "ca_file"], prefix: "aivi.", into: &config) }
        if let mqtt = top.value("mqtt") {
            Self.recordLocations(of: mqtt, ["password_file"], prefix: "mqtt.", into: &config)
            if let tls = mqtt.mappingEntries?.first(where: { $0.keyText == "tls" })?.value {
                Self.recordLocations(of: tls, ["ca_file"], prefix: "mqtt.tls.", into: &config)
            }
        }
        Self.recordLocations(of: root, ["state_dir"], prefix: "", into: &config)
        if let status = top.value("status") { config.status = decodeStatus(status) }
        if let timing = top.value("timing") { config.timing = decodeTiming(timing) }
        if let widgets = top.value("widgets") {
            config.widgets = decodeWidgets(widgets, zigbee2mqttBaseTopic: config.mqtt.zigbee2mqttBaseTopic)
        } else {
            error("missing required key 'widgets' at the top level (the widgets this bridge owns)", at: top.location)
        }
        return config
    }

    /// Remembers where `keys` of a mapping are written (their value's position).
    static func recordLocations(of node: YAMLNode, _ keys: [String], prefix: String, into config: inout BridgeConfig) {
        for entry in node.mappingEntries ?? [] where keys.contains(entry.keyText) && !entry.value.isNull {
            config.settingLocations[prefix + entry.keyText] = entry.value.location
        }
    }

    mutating func decodeAivi(_ node: YAMLNode) -> AiviSettings {
        var settings = AiviSettings()
        guard let aivi = section(node, name: "'aivi'", allowedKeys: ConfigKeys.aivi) else { return settings }
        if let api = string(aivi, "api") {
            if Self.hasUserInfo(api) {
                error("'api' in 'aivi' must not carry a user name or password (user@host): the API token goes in "
                      + "'token_file' or 'token_env'", at: aivi.value("api")?.location ?? aivi.location)
            } else {
                switch APIURLRules.parseBase(api) {
                case .success:
                    settings.apiBaseURL = api.hasSuffix("/") ? String(api.dropLast()) : api
                    if Self.sendsTokenInClear(api) {
                        warning("'api' in 'aivi' uses http://: the API token would travel unencrypted", at: aivi.value("api")?.location ?? aivi.location)
                    }
                case .failure(let problem):
                    error("'api' in 'aivi' \(problem.text)", at: aivi.value("api")?.location ?? aivi.location)
                }
            }
        }
        settings.tokenFile = string(aivi, "token_file")
        settings.tokenEnv = string(aivi, "token_env")
        switch (settings.tokenFile, settings.tokenEnv) {
        case (nil, nil) where !aivi.has("token_file") && !aivi.has("token_env"):
            error("'aivi' needs the API token: set 'token_file' (a file holding it) or 'token_env' (an environment variable)",
                  at: aivi.location)
        case (.some, .some):
            error("'aivi' must set only one of 'token_file' and 'token_env'",
                  at: aivi.entry("token_env")?.key.location ?? aivi.location)
        default: break
        }
        if let name = settings.tokenEnv, !Self.isEnvironmentVariableName(name) {
            error("'token_env' in 'aivi' must be an environment variable name like AIVI_TOKEN",
                  at: aivi.value("token_env")?.location ?? aivi.location)
        }
        if let path = string(aivi, "events_path") {
            if let problem = APIURLRules.eventsPathProblem(path) {
                error("'events_path' in 'aivi' \(problem)", at: aivi.value("events_path")?.location ?? aivi.location)
            } else {
                settings.eventsPath = path
            }
        }
        settings.caFile = string(aivi, "ca_file")
        return settings
    }

    mutating func decodeMQTT(_ node: YAMLNode) -> MQTTSettings {
        var settings = MQTTSettings()
        guard let mqtt = section(node, name: "'mqtt'", allowedKeys: ConfigKeys.mqtt) else { return settings }
        if let host = string(mqtt, "host") {
            if case .failure(let refusal) = HostAddress.parse(host) {
                error("'host' in 'mqtt' \(refusal.message)", at: mqtt.value("host")?.location ?? mqtt.location)
            } else {
                settings.host = host
            }
        }
        if let port = integer(mqtt, "port", range: 1...65_535) { settings.port = Int(port) }
        if let clientId = string(mqtt, "client_id") { settings.clientId = clientId }
        settings.username = string(mqtt, "username")
        settings.passwordFile = string(mqtt, "password_file")
        if settings.passwordFile != nil, settings.username == nil, !mqtt.has("username") {
            error("'password_file' in 'mqtt' needs 'username'", at: mqtt.entry("password_file")?.key.location ?? mqtt.location)
        }
        if let tls = mqtt.value("tls") {
            settings.tls = decodeTLS(tls)
        } else if let entry = mqtt.entry("tls") {
            // `tls:` whose sub-keys are all commented out: asked for, so never plaintext.
            settings.tls = MQTTTLSSettings()
            warning("'tls' in 'mqtt' has no value: TLS is used with the system's trusted CAs; write 'tls: true' to say so, "
                    + "'tls: {ca_file: ...}' for your own CA, or 'tls: false' to connect without TLS", at: entry.key.location)
        }
        if settings.passwordFile != nil, settings.tls == nil, (try? HostAddress.parse(settings.host).get())?.isLoopback != true {
            warning("'password_file' in 'mqtt': the MQTT password would travel unencrypted to \(settings.host) (no 'tls'), where "
                    + "anyone on the network can read it; add 'tls: true' (or 'tls: {ca_file: ...}') if the broker offers TLS "
                    + "(usually on port 8883)", at: mqtt.entry("password_file")?.key.location ?? mqtt.location)
        }
        if let topic = topic(mqtt, "status_topic") { settings.statusTopic = topic }
        if let version = string(mqtt, "protocol") {
            if let parsed = MQTTProtocolVersion(rawValue: version) { settings.protocolVersion = parsed } else {
                error("'protocol' in 'mqtt' must be 3.1.1 or 5 (it is '\(version)')", at: mqtt.value("protocol")?.location ?? mqtt.location)
            }
        }
        if let keepalive = integer(mqtt, "keepalive_s", range: 5...65_535) { settings.keepaliveSeconds = Int(keepalive) }
        if let base = topic(mqtt, "zigbee2mqtt_base_topic") { settings.zigbee2mqttBaseTopic = base }
        let payloadRange = MQTTSettings.maxPayloadBytesRange
        if let limit = integer(mqtt, "max_payload_bytes", range: payloadRange.lowerBound...Int64.max) {
            if limit > payloadRange.upperBound {
                error("'max_payload_bytes' in 'mqtt' must be at most \(payloadRange.upperBound) (\(payloadRange.upperBound / 1_048_576) MiB; it is \(limit)): the daemon "
                      + "queues at most that much MQTT data, so a bigger message would always be dropped",
                      at: mqtt.value("max_payload_bytes")?.location ?? mqtt.location)
            } else {
                settings.maxPayloadBytes = Int(limit)
            }
        }
        return settings
    }

    /// `tls: { ca_file: ..., insecure: true }`, `tls: {}` or `tls: true` (system CAs),
    /// `tls: false`. Every form but `false` means TLS.
    private mutating func decodeTLS(_ node: YAMLNode) -> MQTTTLSSettings? {
        if case .bool(let enabled)? = node.scalar?.value { return enabled ? MQTTTLSSettings() : nil }
        guard let tls = section(node, name: "'mqtt.tls'", allowedKeys: ConfigKeys.mqttTLS) else { return nil }
        let insecure = bool(tls, "insecure") ?? false
        if insecure { warning(MQTTTLSSettings.insecureWarning, at: tls.value("insecure")?.location ?? tls.location) }
        return MQTTTLSSettings(caFile: string(tls, "ca_file"), insecure: insecure)
    }

    /// `status: {listen, path, refresh_s}`; `status: true` for the defaults,
    /// `false` (or leaving it out) for no status endpoint.
    mutating func decodeStatus(_ node: YAMLNode) -> StatusSettings? {
        if case .bool(let enabled)? = node.scalar?.value { return enabled ? StatusSettings() : nil }
        guard let status = section(node, name: "'status'", allowedKeys: ConfigKeys.status) else { return nil }
        var settings = StatusSettings()
        if let listen = string(status, "listen") {
            let location = status.value("listen")?.location ?? status.location
            if let address = ListenAddress.parse(listen) {
                settings.listen = listen
                if !address.isLoopback {
                    warning("'listen' in 'status' is \(listen): the status view has no authentication and anyone who can reach "
                        + "this address sees your devices' states; use 127.0.0.1:\(address.port) unless that is what you want", at: location)
                }
            } else {
                error("'listen' in 'status' must be HOST:PORT with a literal IP or localhost (e.g. 127.0.0.1:8787 or [::1]:8787), "
                    + "not '\(listen)'", at: location)
            }
        }
        if let path = string(status, "path") {
            if path.hasPrefix("/") { settings.path = path } else {
                error("'path' in 'status' must start with '/'", at: status.value("path")?.location ?? status.location)
            }
        }
        if let refresh = integer(status, "refresh_s", range: 1...86_400) { settings.refreshSeconds = Int(refresh) }
        return settings
    }

    mutating func decodeTiming(_ node: YAMLNode) -> TimingSettings {
        var timing = TimingSettings()
        guard let section = section(node, name: "'timing'", allowedKeys: ConfigKeys.timing) else { return timing }
        if let value = integer(section, "confirm_timeout_ms", range: 1...14_999) { timing.confirmTimeoutMs = value }
        if let value = integer(section, "settle_window_ms", range: 0...60_000) { timing.settleWindowMs = value }
        if let value = integer(section, "publish_retry_initial_ms", range: 1...60_000) { timing.publishRetryInitialMs = value }
        if let value = integer(section, "publish_retry_cap_ms", range: 1...3_600_000) { timing.publishRetryCapMs = value }
        if let value = integer(section, "permanent_error_retry_ms", range: 1_000...86_400_000) { timing.permanentErrorRetryMs = value }
        decodeDedupe(section, &timing)
        if let value = integer(section, "stream_dead_after_ms", range: 1_000...600_000) { timing.streamDeadAfterMs = value }
        if let value = integer(section, "stop_grace_ms", range: 0...60_000) { timing.stopGraceMs = value }
        if let value = integer(section, "button_answer_window_ms", range: 0...4_000) { timing.buttonAnswerWindowMs = value }
        if let value = integer(section, "min_publish_interval_ms", range: TimingSettings.minPublishIntervalMsRange) {
            timing.minPublishIntervalMs = value
        }
        if timing.publishRetryCapMs < timing.publishRetryInitialMs {
            error("'publish_retry_cap_ms' in 'timing' must not be below 'publish_retry_initial_ms'",
                  at: section.value("publish_retry_cap_ms")?.location ?? section.location)
        }
        return timing
    }

    /// `dedupe_margin_ms` between its floor and ceiling (`DedupeMemory`), and a
    /// `dedupe_capacity` that holds every id the service may deliver while one
    /// must be remembered (`DedupeMemory.idsNeeded`).
    mutating func decodeDedupe(_ section: ConfigSection, _ timing: inout TimingSettings) {
        let marginRange = DedupeMemory.minMarginMs...DedupeMemory.maxMarginMs
        if let value = integer(section, "dedupe_margin_ms", range: 0...Int64(Int32.max)) {
            if marginRange.contains(value) { timing.dedupeMarginMs = value } else {
                error("'dedupe_margin_ms' in 'timing' must be between \(marginRange.lowerBound) and \(marginRange.upperBound) "
                      + "(it is \(value)): at least 10 s, as the server's clock is read to the whole second and the board's "
                      + "drifts, or a replay of a press not safe to repeat could run it again after a restart; at most an hour",
                      at: section.value("dedupe_margin_ms")?.location ?? section.location)
            }
        }
        guard let capacity = integer(section, "dedupe_capacity", range: 16...1_000_000) else { return }
        timing.dedupeCapacity = Int(capacity)
        let needed = DedupeMemory.idsNeeded(marginMs: timing.dedupeMarginMs)
        guard capacity < needed else { return }
        error("'dedupe_capacity' in 'timing' is \(capacity), fewer than the \(needed) event ids the service may deliver while one "
              + "must be remembered (a burst of \(AiviServiceLimits.accountBurstPresses), then \(AiviServiceLimits.accountPressesPerSecond) "
              + "a second for a press's 5 s, the \(timing.dedupeMarginMs / 1000) s of dedupe_margin_ms and 1 s of clock "
              + "uncertainty): set it to at least \(needed), or leave it out (\(TimingSettings().dedupeCapacity))",
              at: section.value("dedupe_capacity")?.location ?? section.location)
    }

    /// `scheme://user[:password]@host...`: user info in the authority.
    static func hasUserInfo(_ url: String) -> Bool {
        guard let schemeEnd = url.firstRange(of: "://") else { return false }
        let authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return authority.contains("@")
    }

    /// Plain HTTP to anything but this machine.
    static func sendsTokenInClear(_ url: String) -> Bool {
        guard url.hasPrefix("http://") else { return false }
        let hostAndRest = url.dropFirst("http://".count)
        return !["localhost", "127.0.0.1", "[::1]"].contains { local in
            hostAndRest.hasPrefix(local) && (hostAndRest.count == local.count
                || [":", "/"].contains(hostAndRest[hostAndRest.index(hostAndRest.startIndex, offsetBy: local.count)]))
        }
    }

    static func isEnvironmentVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic && first.isASCII else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }
}
