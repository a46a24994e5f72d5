#if canImport(Glibc)
import Glibc
#endif
@testable import BridgeCore

/// The example config of the repo (`config/bridge.example.yaml`, every preset and
/// every hand-written kind of action), loaded once: presses and payloads reach
/// deep paths only against real widgets and topics.
let exampleConfig: BridgeConfig = {
    let path = "config/bridge.example.yaml"
    guard let file = fopen(path, "rb") else { fatalError("fuzz: run from the repository's root (no \(path))") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[0..<count]
    }
    let result = ConfigLoader.load(text: String(decoding: bytes, as: UTF8.self), fileName: path)
    guard let config = result.config else { fatalError("fuzz: \(path) does not load:\n\(result.rendered())") }
    return config
}()

/// 2026-11-29T21:00:00Z: the day of the API document's example press.
let exampleNowMs: Int64 = 1_795_986_000_000

/// A bridge on the example config, connected to MQTT and the event stream, settled.
let readyBridge: Bridge = {
    var bridge = Bridge(config: exampleConfig, randomSeed: 1)
    for event in [BridgeInputEvent.mqttConnected, .eventStreamConnected, .timerFired(.settle)] {
        _ = bridge.handle(BridgeInput(event, boardClockMs: exampleNowMs))
    }
    return bridge
}()
