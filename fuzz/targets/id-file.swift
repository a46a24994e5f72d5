@testable import BridgeCore

/// The id file of presses not safe to repeat (`UnsafeEventIdFile`), as a crash
/// or a hostile hand leaves it: any bytes to the log reader and the reader of
/// the earlier versions' file. Beyond "no crash":
/// - no line is both a record and damaged, and no record comes from nothing;
/// - what was read, written back, reads back the same (the writer's lines are
///   always readable, whatever the ids);
/// - a record appended after a whole line is read back, and the lines before it
///   are read as before (one damaged line never costs the others).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = FuzzInput(start, count).all
    _ = UnsafeEventIdFile.decodeLegacy(bytes)
    let reading = UnsafeEventIdFile.read(log: bytes)
    fuzzCheck(reading.events.count + reading.damagedLineCount <= reading.lineCount, "more records than lines")

    let rewritten = reading.events.flatMap(UnsafeEventIdFile.line)
    let reread = UnsafeEventIdFile.read(log: rewritten)
    fuzzCheck(reread.events == reading.events && reread.damagedLineCount == 0 && !reread.endsTorn,
                 "the ids read do not survive being written back")

    guard !reading.endsTorn, let first = reading.events.first else { return 0 }
    let appended = RememberedEvent(id: first.id + "\u{1}\"\\", expiresAtMs: first.expiresAtMs &+ 1)
    let after = UnsafeEventIdFile.read(log: bytes + UnsafeEventIdFile.line(appended))
    fuzzCheck(after.events == reading.events + [appended] && after.damagedLineCount == reading.damagedLineCount,
                 "an appended record is not read back, or changed what was read before it")
    return 0
}
