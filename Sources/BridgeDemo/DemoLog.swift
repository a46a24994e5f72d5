import ShellSupport

/// The last lines of what happened, for the demo page: bridge log lines and
/// what the virtual devices did, each with its time. Bounded.
final class DemoLog: Sendable {
    static let capacity = 300

    struct Line: Sendable {
        var sequence: Int
        var atMs: Int64
        var text: String
    }

    private let lines = ConditionLock<(next: Int, items: [Line])>((1, []))

    func append(_ text: String) {
        lines.withLock { state in
            state.items.append(Line(sequence: state.next, atMs: WallClock.nowEpochMs(), text: text))
            state.next += 1
            if state.items.count > Self.capacity { state.items.removeFirst(state.items.count - Self.capacity) }
        }
    }

    /// The lines after `sequence`.
    func lines(after sequence: Int) -> [Line] {
        lines.withLock { $0.items.filter { $0.sequence > sequence } }
    }
}
