@testable import BridgeCore

/// The `Retry-After` reader of refused PATCHes (seconds or an HTTP date, against
/// the response's own `Date` or the board's clock) on any text: never a crash,
/// and the delay the core honours is always within its bounds.
///
/// Input: the header's value, then optionally LF and the response's `Date`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(start, count)
    let parts = input.all.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
    let header = String(decoding: parts[0], as: UTF8.self)
    let responseDate = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
    for boardClockMs in [exampleNowMs, 0, Int64.max, Int64.min] {
        guard let delayMs = RetryAfter.delayMs(header: header, responseDate: responseDate, boardClockMs: boardClockMs)
        else { continue }
        let clampedMs = RetryAfter.clampedMs(delayMs)
        fuzzCheck((RetryAfter.minimumMs...RetryAfter.maximumMs).contains(clampedMs), "delay out of bounds: \(clampedMs)")
    }
    return 0
}
