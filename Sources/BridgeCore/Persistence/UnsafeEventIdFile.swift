/// The file, inside `state_dir`, where the event ids of presses not safe to
/// repeat are kept across restarts: its names and its format, here so the
/// daemon's store, the tools that watch it (the soak) and the fuzzer share them.
///
/// The format is an append-only log of JSON lines, one per id:
/// `{"id":"…","expires_at_ms":N}` and a line break. Reading is forgiving: a
/// line that does not parse is counted as damaged and skipped, the others kept.
public enum UnsafeEventIdFile {
    /// The append-only log, one JSON line per id.
    public static let name = "unsafe-event-ids.jsonl"
    /// The file of earlier versions (one JSON document), read once and migrated.
    public static let legacyName = "unsafe-event-ids.json"
    /// The longest line read back; the longest written (a 128-byte id, every
    /// character escaped) is far shorter.
    public static let maxLineBytes = 4_096

    /// What reading a log found.
    public struct Reading: Sendable, Equatable {
        /// The ids, in file order (a later line for the same id wins when loaded).
        public var events: [RememberedEvent] = []
        /// Non-empty lines, read or not.
        public var lineCount = 0
        /// Lines that did not parse, except a torn last line.
        public var damagedLineCount = 0
        /// The last line has no line break (a crash mid-append; its command never went out).
        public var endsTorn = false
        /// That torn last line was not a whole record, so it was skipped (a torn
        /// line that still reads as a record is kept: remembering it is safe).
        public var skippedTornLine = false

        /// An empty log (no file yet).
        public init() {}
    }

    /// One record and its line break.
    public static func line(_ event: RememberedEvent) -> [UInt8] {
        let object = JSONValue.object([JSONMember("id", .string(event.id)), JSONMember("expires_at_ms", .int(event.expiresAtMs))])
        return Array((object.serialized() + "\n").utf8)
    }

    /// The record on one line (without its line break), or nil if it is not one.
    public static func record(_ line: ArraySlice<UInt8>) -> RememberedEvent? {
        guard line.count <= maxLineBytes, let json = try? JSONValue.parse(bytes: Array(line)),
              let id = json["id"]?.stringValue, case .int(let expiresAtMs)? = json["expires_at_ms"] else { return nil }
        return RememberedEvent(id: id, expiresAtMs: expiresAtMs)
    }

    /// Reads a whole log: every line that is a record, the count of those that are not.
    public static func read(log bytes: [UInt8]) -> Reading {
        var reading = Reading()
        reading.endsTorn = !bytes.isEmpty && bytes.last != UInt8(ascii: "\n")
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where !line.isEmpty {
            reading.lineCount += 1
            if let event = record(line) { reading.events.append(event); continue }
            if index != lines.count - 1 { reading.damagedLineCount += 1 } else { reading.skippedTornLine = true }
        }
        return reading
    }

    /// The single JSON document of earlier versions (`{"version":1,"events":[…]}`),
    /// or nil if it is not one.
    public static func decodeLegacy(_ bytes: [UInt8]) -> [RememberedEvent]? {
        guard let json = try? JSONValue.parse(bytes: bytes), json["version"] == .int(1),
              case .array(let items)? = json["events"] else { return nil }
        var events: [RememberedEvent] = []
        for item in items {
            guard let id = item["id"]?.stringValue, case .int(let expiresAtMs)? = item["expires_at_ms"] else { return nil }
            events.append(RememberedEvent(id: id, expiresAtMs: expiresAtMs))
        }
        return events
    }
}
