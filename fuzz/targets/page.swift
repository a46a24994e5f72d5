@testable import BridgeCore

/// The status page (issue 43): tiles whose labels, icons, colors, topics and
/// payloads, the service's refusal reason and the presses' event ids are all
/// fuzzed, rendered as the page (`StatusPage.document`) and its live part.
/// Beyond "no crash": no `<`, `"` or `'` of the input reaches the page unescaped
/// (each one in the input is followed by the marker `Zq9`, which the page's own
/// markup never writes after them, and which is taken out of the input first); no
/// secret of the config is on the page; its size is within a bound linear in the
/// input (16 KiB + 8 KiB a tile + 48 bytes an input byte).
///
/// Input: one byte for the number of tiles (1-3), then texts separated by 0xFF:
/// for each tile its label, icon, color, state topic and payload, then the
/// refusal reason, the event id of a press on each tile, and the third tile's
/// availability payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(start, count)
    let tiles = 1 + Int(input.byte() % 3)
    var texts = input.rest().split(separator: 0xFF, omittingEmptySubsequences: false).map { marked(Array($0)) }
    while texts.count < tiles * 5 + 3 { texts.append("") }
    var config = BridgeConfig()
    config.aivi.tokenEnv = pageSecrets[0]
    config.aivi.tokenFile = "/run/\(pageSecrets[1])"
    config.mqtt.username = pageSecrets[2]
    config.mqtt.passwordFile = "/etc/\(pageSecrets[3])"
    config.aivi.apiBaseURL = "https://\(pageSecrets[4]).invalid"
    var topics: [String] = []
    var actions: [ActionConfig] = []
    for tile in 0..<tiles {
        let field = texts[tile * 5..<(tile * 5 + 5)].map { $0 }
        // What check accepts as a topic to listen to: not empty, no NUL, no wildcard.
        var topic = String(field[3].unicodeScalars.filter { $0 != "\0" && $0 != "+" && $0 != "#" })
        if topic.isEmpty || topics.contains(topic) { topic = "t/\(tile)" }
        topics.append(topic)
        actions.append(ActionConfig(id: "a\(tile)", label: field[0].isEmpty ? "A" : field[0], icon: field[1], color: field[2],
                                    kind: .toggle, stateSources: [StateSource(topic: topic)],
                                    command: ToggleCommand(topic: "a\(tile)/set"),
                                    availability: tile == 2 ? AvailabilitySource(topic: "a2/online", availableValue: "online") : nil))
    }
    config.widgets = [WidgetConfig(slug: "w", actions: actions)]
    var bridge = Bridge(config: config, randomSeed: 1)
    var nowMs = exampleNowMs
    func send(_ event: BridgeInputEvent) -> [BridgeEffect] {
        nowMs += 1_000
        return bridge.handle(BridgeInput(event, boardClockMs: nowMs))
    }
    _ = send(.mqttConnected)
    _ = send(.eventStreamConnected)
    for tile in 0..<tiles { _ = send(.mqttMessage(topic: topics[tile], payload: Array(texts[tile * 5 + 4].utf8))) }
    if tiles == 3 { _ = send(.mqttMessage(topic: "a2/online", payload: Array(texts[tiles * 5 + 2].utf8))) }
    var patches = send(.timerFired(.settle)).compactMap { if case .sendPatch(let request) = $0 { request } else { nil } }
    let reason = texts[tiles * 5]
    while let patch = patches.first {
        patches.removeFirst()
        _ = send(.patchCompleted(slug: patch.slug, requestId: patch.requestId, outcome: .status(400, reason: reason)))
    }
    let eventId = texts[tiles * 5 + 1]
    for tile in 0..<tiles {
        let created = nowMs - 100
        let data = "{\"widget\":\"w\",\"action\":\"a\(tile)\",\"kind\":\"toggle\",\"value\":true}"
        let event = "{\"id\":\(JSONValue.string(eventId).serialized()),\"type\":\"widget.action.v1\","
            + "\"created_at\":\"\(SimTimeFormat.iso8601(ms: created))\",\"expires_at\":\"\(SimTimeFormat.iso8601(ms: created + 5_000))\",\"data\":\(data)}"
        let effects = send(.streamEvent(StreamEvent(id: eventId, type: "widget.action.v1", data: event)))
        for case .sendPatch(let patch) in effects {
            _ = send(.patchCompleted(slug: patch.slug, requestId: patch.requestId, outcome: .status(422, reason: reason)))
        }
    }
    let snapshot = bridge.snapshot(serverClockOffsetMs: -1_500)
    let inputText = String(decoding: input.all, as: UTF8.self)
    for (name, page) in [("page", StatusPage.document(snapshot, nowMs: nowMs)), ("live part", StatusPage.live(snapshot, nowMs: nowMs))] {
        for mark in ["<", "\"", "'"] {
            fuzzCheck(!page.contains(mark + pageMarker), "an unescaped \(mark) of the input is on the \(name):\n\(page)")
        }
        for secret in pageSecrets where !inputText.contains(secret) {
            fuzzCheck(!page.contains(secret), "the secret \(secret) is on the \(name)")
        }
        let bound = 16_384 + 8_192 * tiles + 48 * input.all.count
        fuzzCheck(page.utf8.count <= bound, "the \(name) is \(page.utf8.count) bytes, over \(bound) for \(input.all.count) input bytes")
    }
    return 0
}

private let pageMarker = "Zq9"
private let pageSecrets = ["SeCrEtTokenEnv", "SeCrEtTokenFile", "SeCrEtMqttUser", "SeCrEtPasswordFile", "SeCrEtApiHost"]

/// The text, the marker taken out of it, each `<`, `"` and `'` followed by the marker.
private func marked(_ bytes: [UInt8]) -> String {
    let text = String(decoding: bytes, as: UTF8.self).replacingAll(pageMarker, with: "Zq8")
    var out = ""
    for character in text {
        out.append(character)
        if character == "<" || character == "\"" || character == "'" { out += pageMarker }
    }
    return out
}
