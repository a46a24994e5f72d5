@testable import BridgeCore

/// The ISO 8601 reader of event envelopes (`created_at`, `expires_at`) on any
/// text: never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(start, count)
    _ = ISO8601Timestamp.milliseconds(from: String(decoding: input.all, as: UTF8.self))
    return 0
}
