@testable import BridgeCore

/// The YAML subset parser alone, on any text: never a crash; a root comes back
/// if and only if there is no error; the tree converts to JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(start, count)
    let parsed = YAMLParser.parse(String(decoding: input.all, as: UTF8.self))
    fuzzCheck((parsed.root == nil) == !parsed.errors.isEmpty, "a root with errors, or none without")
    if let root = parsed.rootDespiteDuplicateKeys { _ = root.jsonValue.serialized() }
    for error in parsed.errors { _ = error.message }
    return 0
}
