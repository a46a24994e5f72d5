@testable import BridgeCore

/// `switchboard-bridge watch`: MQTT messages on the example config's topics,
/// explained line by line to a terminal and as JSON lines to a script. Beyond
/// "no crash": a line for people never carries a control character (a payload
/// must not drive the terminal) nor runs past its bound; a JSON line always
/// parses, and serializing what it parses to gives it back.
///
/// Input: messages separated by 0xFF; each is one byte for the topic (index
/// into the sorted topics, modulo their count), two for the elapsed seconds,
/// then the payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(start, count)
    var session = freshWatch
    let topics = session.subscribedTopics
    for message in input.all.split(separator: 0xFF, omittingEmptySubsequences: true).prefix(32) {
        var fields = FuzzInput(Array(message))
        let topic = topics[Int(fields.byte()) % topics.count]
        let elapsedMs = Int64(fields.uint16()) * 1_000
        for event in session.message(topic: topic, payload: fields.rest(), elapsedMs: elapsedMs) {
            checkHumanLine(WatchFormat.human(event))
            checkJSONLine(WatchFormat.json(event))
        }
    }
    WatchFormat.humanSummary(session.records).forEach(checkHumanLine)
    session.records.map(WatchFormat.jsonSummary).forEach(checkJSONLine)
    return 0
}

/// A watch on the example config, built once (its topic index is most of the cost).
let freshWatch = WatchSession(config: exampleConfig)

/// The longest line `watch` prints for people (a topic, an action, a payload excerpt, a reason).
let maxHumanLineCharacters = 4_096

func checkHumanLine(_ line: String) {
    fuzzCheck(line.count <= maxHumanLineCharacters, "a line of \(line.count) characters")
    for scalar in line.unicodeScalars {
        fuzzCheck(!DisplayText.isControl(scalar), "a control character U+\(String(scalar.value, radix: 16)) in: \(line.debugDescription)")
    }
}

func checkJSONLine(_ line: String) {
    guard let parsed = try? JSONValue.parse(bytes: Array(line.utf8)) else { fatalError("not JSON: \(line)") }
    fuzzCheck(parsed.serialized() == line, "not a fixed point: \(line)")
}
