/// The account's recent presses, in creation order, bounded.
struct EventLog: Sendable {
    private(set) var events: [PressEvent] = []
    private let maxRetained: Int
    private(set) var lastSequence = 0

    init(maxRetained: Int) { self.maxRetained = maxRetained }

    mutating func nextSequence() -> Int {
        lastSequence += 1
        return lastSequence
    }

    mutating func append(_ event: PressEvent) {
        events.append(event)
        if events.count > maxRetained { events.removeFirst(events.count - maxRetained) }
    }

    /// The sequence after which a stream starts: just after `lastEventId` when it is
    /// known, else before every retained event (so every unexpired one is replayed).
    func cursor(afterEventId lastEventId: String?) -> Int {
        if let lastEventId, let known = events.first(where: { $0.id == lastEventId }) {
            return known.sequence
        }
        return (events.first?.sequence ?? lastSequence + 1) - 1
    }

    /// The events a stream at `cursor` may send now, in order: it stops at the first
    /// event that is unexpired but not yet due, so order is kept. Also returns the new cursor.
    func deliverable(after cursor: Int, nowMs: Int64) -> (events: [PressEvent], cursor: Int) {
        var ready: [PressEvent] = []
        var newCursor = cursor
        for event in events where event.sequence > cursor {
            if !event.isUnexpired(atMs: nowMs) {
                newCursor = event.sequence
                continue
            }
            guard event.deliverAtMs <= nowMs else { break }
            ready.append(event)
            newCursor = event.sequence
        }
        return (ready, newCursor)
    }
}
