@testable import BridgeCore

/// The config loader on any text: the YAML subset, the schema, the presets and
/// the validation. Never a crash; a config comes back if and only if no
/// diagnostic is an error; the rendered report (what `check` prints) is built;
/// a valid config builds a bridge that renders every widget.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(start, count)
    let result = ConfigLoader.load(text: String(decoding: input.all, as: UTF8.self), fileName: "fuzz.yaml")
    fuzzCheck((result.config == nil) == !result.errors.isEmpty, "a config with errors, or none without")
    _ = result.rendered()
    if let config = result.config {
        var bridge = Bridge(config: config)
        _ = bridge.handle(BridgeInput(.mqttConnected, boardClockMs: 0))
        _ = bridge.handle(BridgeInput(.timerFired(.settle), boardClockMs: 1))
        for widget in config.widgets { _ = bridge.renderedBody(slug: widget.slug) }
    }
    return 0
}
