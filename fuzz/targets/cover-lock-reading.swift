@testable import BridgeCore

/// Covers and locks of every preset and on custom keys (issue 43): sequences of
/// MQTT messages on their topics through `Bridge.handle`. After each message, a
/// cover that was not closed and now is must have been sent its closed word (or a
/// protective off word) or a position of exactly 0 on that topic; a lock that was
/// not locked and now is must have been sent its locked word. Words compare as
/// bytes with an ASCII-only case fold, after trimming white space; a number is
/// exactly 0 when its digits are all zeros (`0`, `0.0`, `-0`, `0e3`).
///
/// Input: messages separated by 0xFF (never in UTF-8); each is one byte that
/// picks the topic (modulo the sorted state topics of the covers and locks), then
/// the payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(start, count)
    var bridge = coverLockBridge
    for message in input.all.split(separator: 0xFF, omittingEmptySubsequences: true).prefix(32) {
        let topic = coverLockTopics[Int(message[message.startIndex]) % coverLockTopics.count]
        let payload = Array(message.dropFirst())
        let before = coverLockActions.map { bridge.states[$0.key]?.isOn }
        _ = bridge.handle(BridgeInput(.mqttMessage(topic: topic, payload: payload), boardClockMs: exampleNowMs))
        for (index, (key, action)) in coverLockActions.enumerated() {
            let after = bridge.states[key]?.isOn
            let sources = action.stateSources.filter { $0.topic == topic }
            switch action.device {
            case .cover where before[index] != false && after == false:
                fuzzCheck(sources.contains { saysClosed(payload, $0) },
                          "cover '\(action.id)' shown closed on \(topic) '\(shown(payload))', "
                          + "neither its closed word nor position 0")
            case .lock where before[index] != true && after == true:
                fuzzCheck(sources.contains { sourceSaysLocked(payload, $0) },
                          "lock '\(action.id)' shown locked on \(topic) '\(shown(payload))', not its locked word")
            default: break
            }
        }
    }
    return 0
}

/// Every preset of a cover or a lock, and custom ones on explicit keys.
private let coverLockConfigText = """
aivi:
  token_env: AIVI_TOKEN
widgets:
  - slug: home
    actions:
      - {id: z_cover, label: Z cover, zigbee2mqtt_cover: garage}
      - {id: z_cover_l2, label: Z cover l2, zigbee2mqtt_cover: blinds, channel: l2}
      - {id: z_lock, label: Z lock, zigbee2mqtt_lock: front}
      - {id: e_cover, label: E cover, esphome_cover: node/gate}
      - {id: e_lock, label: E lock, esphome_lock: node/door}
      - {id: sp_cover, label: SP cover, shelly_plus_cover: shellyplus2pm-1}
      - {id: s_roller, label: S roller, shelly_roller: shellyswitch25-1}
      - {id: t_shutter, label: T shutter, tasmota_shutter: blinds, channel: 1}
      - id: c_cover
        label: Custom cover
        device: cover
        state_topic: custom/cover
        state_field: s
        position_field: pos.value
        command_topic: custom/cover/set
        on_value: auf
        off_value: zu
        closing_value: schliesst
        payload_on: AUF
        payload_off: ZU
      - id: c_cover_raw
        label: Raw cover
        device: cover
        state_topic: custom/raw
        position_topic: custom/raw/pos
        command_topic: custom/raw/set
      - id: c_lock
        label: Custom lock
        device: lock
        state_topic: custom/lock
        state_field: lock.state
        command_topic: custom/lock/set
        on_value: zu
        off_value: offen
        jammed_value: klemmt
"""

private let coverLockConfig: BridgeConfig = {
    let result = ConfigLoader.load(text: coverLockConfigText, fileName: "cover-lock.yaml")
    guard let config = result.config else { fatalError("fuzz: the cover and lock config does not load:\n\(result.rendered())") }
    return config
}()

private let coverLockActions: [(key: ActionKey, action: ActionConfig)] = coverLockConfig.widgets.flatMap { widget in
    widget.actions.map { (ActionKey(slug: widget.slug, actionId: $0.id), $0) }
}

private let coverLockTopics: [String] = Array(Set(coverLockActions.flatMap { $0.action.stateSources.map(\.topic) })).sorted()

private let coverLockBridge: Bridge = {
    var bridge = Bridge(config: coverLockConfig, randomSeed: 1)
    for event in [BridgeInputEvent.mqttConnected, .eventStreamConnected, .timerFired(.settle)] {
        _ = bridge.handle(BridgeInput(event, boardClockMs: exampleNowMs))
    }
    return bridge
}()

/// Whether the payload gives `source` its off word (a cover's closed word), a
/// protective off word, or, for a position, exactly 0.
private func saysClosed(_ payload: [UInt8], _ source: StateSource) -> Bool {
    candidates(payload, source.field).contains { value in
        if source.isPosition { return isExactlyZero(value) }
        return ([source.offValue] + source.protectiveOffValues).contains { !$0.isEmpty && asciiFoldEqual(value, $0) }
    }
}

/// Whether the payload gives `source` its on word (a lock's locked word).
private func sourceSaysLocked(_ payload: [UInt8], _ source: StateSource) -> Bool {
    !source.isPosition && !source.onValue.isEmpty && candidates(payload, source.field).contains { asciiFoldEqual($0, source.onValue) }
}

/// What a source could read in the payload, generously: the trimmed text, and the
/// scalars at its field (any member of that name) when it is JSON.
private func candidates(_ payload: [UInt8], _ field: [String]?) -> [String] {
    var found = [trimmed(String(decoding: payload, as: UTF8.self))]
    guard let json = try? JSONValue.parse(bytes: payload) else { return found }
    if let scalar = json.scalarText { found.append(trimmed(scalar)) }
    var level = [json]
    for key in field ?? [] {
        level = level.flatMap { $0.objectMembers?.filter { $0.key == key }.map(\.value) ?? [] }
    }
    found += level.compactMap(\.scalarText).map(trimmed)
    return found
}

/// The payload for the failure message: printable ASCII as it is, the rest as `\u{...}`.
private func shown(_ payload: [UInt8]) -> String {
    String(decoding: payload, as: UTF8.self).unicodeScalars.map { scalar in
        scalar.value >= 0x20 && scalar.value < 0x7F ? String(scalar) : "\\u{\(String(scalar.value, radix: 16))}"
    }.joined()
}

private func trimmed(_ text: String) -> String {
    var characters = Substring(text)
    while let first = characters.first, first.isWhitespace { characters.removeFirst() }
    while let last = characters.last, last.isWhitespace { characters.removeLast() }
    return String(characters)
}

/// Byte equality after folding ASCII letters only (`K` and KELVIN SIGN differ).
private func asciiFoldEqual(_ a: String, _ b: String) -> Bool {
    func fold(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
    return a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { fold($0) == fold($1) }
}

/// A decimal number whose digits are all zeros: `0`, `-0`, `0.00`, `0e5`.
private func isExactlyZero(_ text: String) -> Bool {
    var rest = Substring(text)
    if rest.first == "-" || rest.first == "+" { rest.removeFirst() }
    let mantissa = rest.prefix { $0 != "e" && $0 != "E" }
    let exponent = rest.dropFirst(mantissa.count)
    let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard !mantissa.isEmpty, parts.allSatisfy({ $0.allSatisfy { $0 == "0" } }), parts.contains(where: { !$0.isEmpty }) else { return false }
    guard !exponent.isEmpty else { return true }
    var digits = exponent.dropFirst()
    if digits.first == "-" || digits.first == "+" { digits.removeFirst() }
    return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
}
