@testable import BridgeCore

/// MQTT messages on the example config's topics, read by the presets' payload
/// interpretation (raw words, JSON fields, availability, button activity) and
/// handled by a settled bridge: never a crash.
///
/// Input: messages separated by 0xFF (never in UTF-8); each is one byte that
/// picks the topic (modulo the sorted subscribed topics) and the payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(start, count)
    var bridge = readyBridge
    let topics = bridge.subscribedTopics
    for message in input.all.split(separator: 0xFF, omittingEmptySubsequences: true).prefix(32) {
        let topic = topics[Int(message[message.startIndex]) % topics.count]
        let payload = Array(message.dropFirst())
        _ = bridge.handle(BridgeInput(.mqttMessage(topic: topic, payload: payload), boardClockMs: exampleNowMs))
    }
    for widget in exampleConfig.widgets { _ = bridge.renderedBody(slug: widget.slug) }
    return 0
}
