import BridgeCore
import Glibc

/// Keeps the event ids of presses that must never run twice, in one small file
/// in the state directory, written atomically and durably (temp file, fsync,
/// rename, fsync of the directory). A damaged file is set aside, not trusted
/// and not fatal.
public struct EventIdStore: Sendable {
    public static let fileName = "unsafe-event-ids.json"
    /// The most ids the file may hold (the core's dedupe cap bounds it first).
    public static let maxEvents = 10_000

    public let directory: String
    public var path: String { directory + "/" + Self.fileName }

    public init(directory: String) { self.directory = directory }

    /// What a load found: the ids, and a problem to report if the file was damaged.
    public struct Loaded: Sendable {
        public var events: [RememberedEvent]
        public var problem: String?
    }

    /// Reads the remembered ids; a missing file is an empty memory.
    public func load() -> Loaded {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path: path, limit: 4 * 1024 * 1024) } catch {
            guard error.errorNumber != ENOENT else { return Loaded(events: [], problem: nil) }
            return Loaded(events: [], problem: "cannot read \(path) (\(error)): starting with an empty memory, "
                + "so a press of an action not safe to repeat that is replayed now could run again")
        }
        if let events = Self.decode(bytes) { return Loaded(events: events, problem: nil) }
        let aside = path + ".damaged"
        rename(path, aside)
        return Loaded(events: [], problem: "\(path) was damaged; moved it to \(aside) and started with an empty memory")
    }

    /// Replaces the file with `events`, durably, before returning.
    public func save(_ events: [RememberedEvent]) throws(FileError) {
        let body = Self.encode(Array(events.suffix(Self.maxEvents)))
        try FileBytes.writeDurably(path: path, bytes: Array(body.utf8))
    }

    static func encode(_ events: [RememberedEvent]) -> String {
        let items = events.map { event in
            JSONValue.object([JSONMember("id", .string(event.id)), JSONMember("expires_at_ms", .int(event.expiresAtMs))])
        }
        return JSONValue.object([JSONMember("version", .int(1)), JSONMember("events", .array(items))]).serialized() + "\n"
    }

    static func decode(_ bytes: [UInt8]) -> [RememberedEvent]? {
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
