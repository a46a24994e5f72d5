@testable import BridgeCore

/// The JSON parser (device payloads, events, the id file) on any bytes: never
/// a crash; what it accepts serializes to text it accepts again, and that text
/// is a fixed point (integral doubles print as integers, by design).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(start, count)
    guard let value = try? JSONValue.parse(bytes: input.all) else { return 0 }
    let text = value.serialized()
    guard let again = try? JSONValue.parse(text) else { fatalError("serialized JSON does not parse again: \(text)") }
    fuzzCheck(again.serialized() == text, "serializing is not stable: \(text)")
    _ = value.scalarText
    return 0
}
