import BridgeCore
import Glibc

/// Keeps the event ids of presses that must never run twice, in an append-only
/// log in the state directory: one JSON line per id, appended and `fdatasync`'d
/// before the command goes out (`record`: one line per unsafe press, whatever
/// the number remembered; never the whole set). The core says which ids no
/// replay can deliver any more (`forget`); once the dead lines outnumber the
/// live ones by `compactionSlack`, the log is compacted: the live ids are
/// written to a temp file (created `O_EXCL|O_NOFOLLOW`, mode 0600), fsync'd and
/// renamed over the log, so a crash leaves the old log or the new one. The writer never lets the file outgrow what the reader
/// accepts, so whatever was written is read back by the next start; a torn
/// last line (a crash mid-append) or a damaged line is skipped, not fatal.
///
/// Used by one thread at a time (hence `@unchecked Sendable`): the daemon's
/// start, then its syncing thread (`SyncingEventIdRecorder`).
public final class EventIdStore: @unchecked Sendable {
    public static let fileName = UnsafeEventIdFile.name
    /// The file of earlier versions (one JSON document), read once and migrated.
    public static let legacyFileName = UnsafeEventIdFile.legacyName
    /// The largest log the reader accepts and the writer produces.
    public static let maxFileBytes = 4 * 1024 * 1024
    /// The most ids kept; the core's bound on unsafe ids is the same.
    public static let maxEvents = DedupeMemory.maxUnsafeIds
    /// Dead lines (forgotten ids) tolerated beyond the live ones before compacting.
    static let compactionSlack = 256

    public let directory: String
    public var path: String { directory + "/" + Self.fileName }
    var legacyPath: String { directory + "/" + Self.legacyFileName }

    /// The live ids in the log (keyed by their bytes), with their expiry.
    private var written: [UTF8Key: Int64] = [:]
    private var lineCount = 0
    private var fileBytes = 0
    private var descriptor: Int32 = -1
    /// Set after a failed append: the file may end in a torn line, so the next
    /// save rewrites it whole.
    private var needsRewrite = false

    /// Makes an appended line durable (`fdatasync`; a test's slow disk, or the
    /// daemon's injected fault, waits first).
    private let syncData: @Sendable (Int32) -> Int32

    public init(directory: String, syncData: @escaping @Sendable (Int32) -> Int32 = { fdatasync($0) }) {
        self.directory = directory
        self.syncData = syncData
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// What a load found: the ids, and a problem to report if the file was damaged.
    public struct Loaded: Sendable {
        public var events: [RememberedEvent]
        public var problem: String?
    }

    /// Reads the remembered ids (the log, and the file of an earlier version if
    /// one is left); a missing file is an empty memory.
    public func load() -> Loaded {
        var problems: [String] = []
        var events: [UTF8Key: Int64] = [:]
        let legacy = loadLegacy()
        if let problem = legacy.problem { problems.append(problem) }
        for event in legacy.events { events[UTF8Key(event.id)] = event.expiresAtMs }
        let log = loadLog()
        if let problem = log.problem { problems.append(problem) }
        for event in log.reading.events { events[UTF8Key(event.id)] = event.expiresAtMs }
        let sorted = events.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.suffix(Self.maxEvents)
        written = Dictionary(sorted.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        lineCount = log.reading.lineCount
        fileBytes = log.byteCount
        needsRewrite = !legacy.events.isEmpty || log.problem != nil || log.reading.endsTorn
        return Loaded(events: sorted.map { RememberedEvent(id: $0.key.text, expiresAtMs: $0.value) }, problem: problems.isEmpty ? nil : problems.joined(separator: "; "))
    }

    /// Opens the log for appending (creating it, mode 0600), so a read-only or
    /// unwritable state directory is found at start, not at the first unsafe press.
    /// Through the one opening path, never through a symbolic link: a FIFO, a link
    /// or anything but a regular file there is refused (`refusedKind`).
    public func openForAppending() throws(FileError) {
        guard descriptor < 0 else { return }
        let opened = try FileBytes.openRegularFile(path: path, flags: O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW)
        descriptor = opened.descriptor
        // A log just made: its name is synced too, or an append's fdatasync could outlive it.
        if opened.sizeBytes == 0 { FileBytes.syncDirectory(of: path) }
    }

    /// Appends the record of one id and `fdatasync`s it before returning: the
    /// one line, whatever the number of ids remembered. The log is compacted
    /// instead when it must be (it may end in a torn line, or the line would
    /// take it past `maxFileBytes`).
    public func record(_ event: RememberedEvent) throws(FileError) { try record([event]) }

    /// Appends the records of several ids in one write and one `fdatasync`
    /// (the syncing thread's group commit): all durable, or none (then the
    /// error is thrown and the memory is as before).
    public func record(_ events: [RememberedEvent]) throws(FileError) {
        var previous: [(UTF8Key, Int64?)] = []
        var lines: [UInt8] = []
        var newLineCount = 0
        for event in events {
            let key = UTF8Key(event.id)
            guard written[key] != event.expiresAtMs else { continue }
            lines += UnsafeEventIdFile.line(event)
            newLineCount += 1
            previous.append((key, written.updateValue(event.expiresAtMs, forKey: key)))
        }
        guard newLineCount > 0 else { return }
        do throws(FileError) {
            if needsRewrite || fileBytes + lines.count > Self.maxFileBytes {
                try compact()
            } else {
                try append(lines)
                lineCount += newLineCount
                fileBytes += lines.count
            }
        } catch {
            for (key, value) in previous.reversed() { written[key] = value }
            throw error
        }
    }

    /// Drops ids no replay can deliver any more. Their lines stay in the log
    /// until the dead lines outnumber the live ones by `compactionSlack`; then
    /// the log is rewritten with the live ids (temp file, synced, renamed), so
    /// compaction is occasional and its cost spread over the appends before it.
    public func forget(_ ids: [String]) throws(FileError) {
        for id in ids { written[UTF8Key(id)] = nil }
        if lineCount - written.count > written.count + Self.compactionSlack { try compact() }
    }

    /// The ids the log holds now (live), soonest-expiring first.
    var liveEvents: [RememberedEvent] {
        written.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map { RememberedEvent(id: $0.key.text, expiresAtMs: $0.value) }
    }

    private func append(_ bytes: [UInt8]) throws(FileError) {
        try openForAppending()
        do throws(FileError) {
            try FileBytes.writeAll(descriptor: descriptor, bytes: bytes, path: path)
            guard syncData(descriptor) == 0 else { throw FileError(path: path, operation: "fdatasync", errorNumber: errno) }
        } catch {
            needsRewrite = true
            throw error
        }
    }

    /// Writes the live ids to a fresh temp file and renames it over the log.
    private func compact() throws(FileError) {
        let bytes = liveEvents.suffix(Self.maxEvents).flatMap(UnsafeEventIdFile.line)
        do { try FileBytes.writeDurably(path: path, bytes: bytes) } catch {
            needsRewrite = true
            throw error
        }
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        lineCount = written.count
        fileBytes = bytes.count
        needsRewrite = false
        unlink(legacyPath)
        try openForAppending()
    }

    // MARK: Reading

    /// What reading the log found: its records (`UnsafeEventIdFile.Reading`), its
    /// size, and a problem to report (unreadable, or damaged lines skipped).
    private struct LogContents {
        var reading = UnsafeEventIdFile.Reading()
        var byteCount = 0
        var problem: String?
    }

    private func loadLog() -> LogContents {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path: path, limit: Self.maxFileBytes, followsSymbolicLinks: false) } catch {
            guard error.errorNumber != ENOENT else { return LogContents() }
            return LogContents(problem: "cannot read \(path) (\(error)): starting with an empty memory, "
                + "so a press of an action not safe to repeat that is replayed now could run again")
        }
        let reading = UnsafeEventIdFile.read(log: bytes)
        let damaged = reading.damagedLineCount
        var problems: [String] = []
        if damaged > 0 { problems.append("skipped \(damaged) damaged line\(damaged == 1 ? "" : "s")") }
        if reading.skippedTornLine {
            problems.append("skipped its torn last line (a stop mid-append: that press's command never went out)")
        }
        let problem = problems.isEmpty ? nil : "\(path): \(problems.joined(separator: "; ")); the other ids are kept"
        return LogContents(reading: reading, byteCount: bytes.count, problem: problem)
    }

    /// The single JSON document of earlier versions, if one is left.
    private func loadLegacy() -> Loaded {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path: legacyPath, limit: 4 * Self.maxFileBytes, followsSymbolicLinks: false) } catch {
            guard error.errorNumber != ENOENT else { return Loaded(events: [], problem: nil) }
            return Loaded(events: [], problem: "cannot read \(legacyPath) (\(error))")
        }
        if let events = UnsafeEventIdFile.decodeLegacy(bytes) { return Loaded(events: events, problem: nil) }
        let aside = legacyPath + ".damaged"
        rename(legacyPath, aside)
        return Loaded(events: [], problem: "\(legacyPath) was damaged; moved it to \(aside)")
    }
}
