/// A min-heap of event ids by expiry, for the dedupe memory: the soonest
/// expiring id in O(1), a push or a pop in O(log n), so neither forgetting nor
/// evicting scans the whole memory (a million ids, a hostile stream).
///
/// Entries are not removed when their id is forgotten: the owner skips the
/// dead ones it meets at the top, and rebuilds the heap from the live ones
/// (`init(entries:)`) when dead entries pile up.
struct ExpiryQueue: Sendable {
    struct Entry: Sendable, Equatable {
        var expiresAtMs: Int64
        var id: UTF8Key

        static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
            lhs.expiresAtMs != rhs.expiresAtMs ? lhs.expiresAtMs < rhs.expiresAtMs : lhs.id < rhs.id
        }
    }

    private(set) var entries: [Entry] = []

    init() {}

    /// A heap of `entries` in any order (O(n)).
    init(entries: [Entry]) {
        self.entries = entries
        for index in stride(from: entries.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    var count: Int { entries.count }

    /// The soonest-expiring entry.
    var soonest: Entry? { entries.first }

    mutating func push(_ entry: Entry) {
        entries.append(entry)
        siftUp(entries.count - 1)
    }

    mutating func removeSoonest() {
        guard !entries.isEmpty else { return }
        removeTop()
    }

    private mutating func removeTop() {
        entries.swapAt(0, entries.count - 1)
        entries.removeLast()
        if !entries.isEmpty { siftDown(0) }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard Entry.precedes(entries[child], entries[parent]) else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count, Entry.precedes(entries[left], entries[smallest]) { smallest = left }
            if right < entries.count, Entry.precedes(entries[right], entries[smallest]) { smallest = right }
            guard smallest != parent else { return }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
