/// The event ids already seen, so a press delivered twice runs once. Ids are
/// keyed by their UTF-8 bytes (`UTF8Key`): two ids the service tells apart
/// are two ids here, whatever Unicode says of them.
///
/// Two kinds of ids, bounded differently:
/// - An id of an action not safe to repeat (`repeat_safe: false`) is never
///   forgotten before its press expired plus the margin plus the uncertainty
///   of the server's clock: no capacity evicts it. At most `maxUnsafeIds` are
///   held (they are persisted, so this bounds the id file too); when that many
///   are live, a new unsafe press is refused (`hasRoomForUnsafe`), never an
///   old id dropped. The service's own rate limits keep far below it
///   (`idsNeeded(marginMs:)`).
/// - Ids of repeat-safe actions: at most `capacity` (`dedupe_capacity`); past
///   it the soonest-expiring safe id goes (a repeat of a safe press is harmless).
///
/// Forgetting and evicting take the soonest-expiring id from a heap
/// (`ExpiryQueue`): O(log n) per id, never a scan of the whole memory.
public struct DedupeMemory: Sendable {
    /// The most ids of unsafe actions remembered at once.
    public static let maxUnsafeIds = 10_000
    /// The least `dedupe_margin_ms`: 10 s, for the whole-second `Date` header
    /// (±1 s), the network's delay of it, and the board's clock drifting from
    /// the last reading (100 ppm is 8.6 s a day).
    public static let minMarginMs: Int64 = 10_000
    /// The most `dedupe_margin_ms`: an hour (the ids the service may deliver
    /// meanwhile must fit in `maxUnsafeIds` and the default capacity).
    public static let maxMarginMs: Int64 = 3_600_000

    struct Remembered: Sendable, Equatable {
        var expiresAtMs: Int64
        var isUnsafe: Bool
    }

    private(set) var entries: [UTF8Key: Remembered] = [:]
    private var safeQueue = ExpiryQueue()
    private var unsafeQueue = ExpiryQueue()
    private(set) var unsafeCount = 0
    /// Whether `boundExpiries(notAfterMs:)` ran (once the server's clock is known).
    private(set) var hasBoundedExpiries = false
    let marginMs: Int64
    let capacity: Int

    /// `marginMs` is raised to `minMarginMs` whatever the caller asks (the
    /// config refuses less; the core does not rely on it).
    init(marginMs: Int64, capacity: Int, remembered: [RememberedEvent]) {
        self.marginMs = min(max(marginMs, Self.minMarginMs), Self.maxMarginMs)
        self.capacity = max(1, capacity)
        for event in remembered.suffix(Self.maxUnsafeIds) {
            let key = UTF8Key(event.id)
            if entries[key]?.isUnsafe == true { unsafeCount -= 1 }
            insert(key, Remembered(expiresAtMs: event.expiresAtMs, isUnsafe: true))
        }
    }

    /// How many ids the service's rate limits let it deliver while one id must
    /// be remembered (a press's life, the margin, the clock's uncertainty): the
    /// account's burst, then its steady rate. `dedupe_capacity` must hold it.
    public static func idsNeeded(marginMs: Int64) -> Int {
        let lifetimeMs = AiviServiceLimits.pressLifetimeMs + max(marginMs, minMarginMs) + HTTPDate.uncertaintyMs
        let seconds = (lifetimeMs + 999) / 1000
        return AiviServiceLimits.accountBurstPresses + Int(seconds) * AiviServiceLimits.accountPressesPerSecond
    }

    func contains(_ id: String) -> Bool { entries[UTF8Key(id)] != nil }

    /// Whether one more unsafe id may be remembered; when not, the press must
    /// be refused (its id could not be kept, so a replay could run it again).
    var hasRoomForUnsafe: Bool { unsafeCount < Self.maxUnsafeIds }

    var safeCount: Int { entries.count - unsafeCount }

    /// Remembers an id; returns true when the unsafe set changed. An unsafe id
    /// is only remembered when `hasRoomForUnsafe` (the caller refuses the press
    /// otherwise); a safe one evicts the soonest-expiring safe id past `capacity`.
    mutating func remember(_ id: String, expiresAtMs: Int64, isUnsafe: Bool) -> Bool {
        let key = UTF8Key(id)
        guard entries[key] == nil else { return false }
        if isUnsafe {
            guard hasRoomForUnsafe else { return false }
            insert(key, Remembered(expiresAtMs: expiresAtMs, isUnsafe: true))
            return true
        }
        insert(key, Remembered(expiresAtMs: expiresAtMs, isUnsafe: false))
        while safeCount > capacity, let soonest = takeSoonest(unsafe: false, while: { _ in true }) {
            entries[soonest.id] = nil
        }
        compactIfNeeded()
        return false
    }

    /// Forgets ids whose record could not be written: their commands did not go
    /// out, so a replay must be free to run them.
    mutating func forget(_ ids: [String]) {
        for id in ids {
            let key = UTF8Key(id)
            if entries[key]?.isUnsafe == true { unsafeCount -= 1 }
            entries[key] = nil
        }
        compactIfNeeded()
    }

    /// Forgets the ids no replay can deliver any more: those whose press expired
    /// more than the margin ago even if the server's clock is `uncertaintyMs`
    /// behind `serverClockMs` (`Int64.max`: never read, so no unsafe id is
    /// forgotten by time). Returns the unsafe ids forgotten (the store may drop them).
    mutating func forgetExpired(serverClockMs: Int64, uncertaintyMs: Int64) -> [String] {
        let margin = marginMs
        let isPast = { (entry: ExpiryQueue.Entry) in
            entry.expiresAtMs.addingSaturating(margin).addingSaturating(max(0, uncertaintyMs)) < serverClockMs
        }
        while let entry = takeSoonest(unsafe: false, while: isPast) { entries[entry.id] = nil }
        var forgotten: [String] = []
        while let entry = takeSoonest(unsafe: true, while: isPast) {
            entries[entry.id] = nil
            unsafeCount -= 1
            forgotten.append(entry.id.text)
        }
        compactIfNeeded()
        return forgotten
    }

    /// Clamps every remembered expiry to `notAfterMs`, once: ids loaded from a
    /// file written before `AiviServiceLimits.maxClaimedLifetimeMs` bounded
    /// them (year 9999) are then forgotten like any other. O(n), once a run.
    mutating func boundExpiries(notAfterMs: Int64) {
        hasBoundedExpiries = true
        guard entries.values.contains(where: { $0.expiresAtMs > notAfterMs }) else { return }
        for (key, remembered) in entries where remembered.expiresAtMs > notAfterMs {
            entries[key] = Remembered(expiresAtMs: notAfterMs, isUnsafe: remembered.isUnsafe)
        }
        safeQueue = ExpiryQueue(entries: entries.compactMap { $0.value.isUnsafe ? nil : ExpiryQueue.Entry(expiresAtMs: $0.value.expiresAtMs, id: $0.key) })
        unsafeQueue = ExpiryQueue(entries: entries.compactMap { $0.value.isUnsafe ? ExpiryQueue.Entry(expiresAtMs: $0.value.expiresAtMs, id: $0.key) : nil })
    }

    private mutating func insert(_ key: UTF8Key, _ remembered: Remembered) {
        entries[key] = remembered
        let entry = ExpiryQueue.Entry(expiresAtMs: remembered.expiresAtMs, id: key)
        if remembered.isUnsafe {
            unsafeCount += 1
            unsafeQueue.push(entry)
        } else {
            safeQueue.push(entry)
        }
    }

    /// The soonest-expiring remembered id of one kind if `condition` holds for
    /// it, taken off its queue (entries of ids forgotten meanwhile are dropped).
    private mutating func takeSoonest(unsafe: Bool, while condition: (ExpiryQueue.Entry) -> Bool) -> ExpiryQueue.Entry? {
        while let top = unsafe ? unsafeQueue.soonest : safeQueue.soonest {
            let isLive = entries[top.id] == Remembered(expiresAtMs: top.expiresAtMs, isUnsafe: unsafe)
            guard !isLive || condition(top) else { return nil }
            if unsafe { unsafeQueue.removeSoonest() } else { safeQueue.removeSoonest() }
            if isLive { return top }
        }
        return nil
    }

    /// Rebuilds a queue from its live entries once the dead ones outnumber them
    /// (amortized O(1) per id).
    private mutating func compactIfNeeded() {
        if safeQueue.count > 2 * safeCount + 64 { safeQueue = ExpiryQueue(entries: liveEntries(of: safeQueue, unsafe: false)) }
        if unsafeQueue.count > 2 * unsafeCount + 64 {
            unsafeQueue = ExpiryQueue(entries: liveEntries(of: unsafeQueue, unsafe: true))
        }
    }

    private func liveEntries(of queue: ExpiryQueue, unsafe: Bool) -> [ExpiryQueue.Entry] {
        queue.entries.filter { entries[$0.id] == Remembered(expiresAtMs: $0.expiresAtMs, isUnsafe: unsafe) }
    }
}
