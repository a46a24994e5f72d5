/// At most `limit` presses in any 60 s: a press at `t` counts until `t + 60 s`.
struct MinuteWindow: Sendable {
    static let windowMs: Int64 = 60_000
    let limit: Int
    private var pressTimesMs: [Int64] = []

    init(limit: Int) { self.limit = limit }

    mutating func canTake(nowMs: Int64) -> Bool {
        pressTimesMs.removeAll { $0 + Self.windowMs <= nowMs }
        return pressTimesMs.count < limit
    }

    mutating func take(nowMs: Int64) {
        pressTimesMs.append(nowMs)
    }
}
