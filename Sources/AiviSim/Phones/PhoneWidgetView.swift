/// One widget as one phone shows it: the content it last received, the presses it
/// is waiting on, and when the next throttled update reaches it. Time only moves
/// through `advance(toMs:)`, so any clock (manual included) drives it.
struct PhoneWidgetView: Sendable {
    private(set) var shown: PublishRecord?
    private var lastDeliveryMs: Int64?
    private var nextDeliveryAtMs: Int64?
    private var pending: [String: PendingPress] = [:]
    private let rules: ServiceRules

    init(latest: PublishRecord?, rules: ServiceRules) {
        shown = latest
        self.rules = rules
    }

    /// Whether the phone waits on a press here (it then gets updates at once).
    var isWaiting: Bool { !pending.isEmpty }

    /// Brings the view to `nowMs`: throttled updates due by then arrive, finished waits end.
    mutating func advance(toMs nowMs: Int64, history: [PublishRecord]) {
        if let dueMs = nextDeliveryAtMs, dueMs <= nowMs {
            nextDeliveryAtMs = nil
            if let record = history.last(where: { $0.receivedAtMs <= dueMs }) {
                deliver(record, atMs: dueMs)
            }
        }
        pending = pending.filter { !$0.value.isOver(atMs: nowMs, rules: rules) }
    }

    /// A new publish of this widget at `nowMs` (after `advance`): the pressing phone
    /// gets it at once, others at most once per interval.
    mutating func receive(_ record: PublishRecord, atMs nowMs: Int64) {
        if isWaiting {
            nextDeliveryAtMs = nil
            deliver(record, atMs: nowMs)
            return
        }
        if let lastMs = lastDeliveryMs, nowMs - lastMs < rules.otherPhoneUpdateIntervalMs {
            if nextDeliveryAtMs == nil { nextDeliveryAtMs = lastMs + rules.otherPhoneUpdateIntervalMs }
            return
        }
        deliver(record, atMs: nowMs)
    }

    private mutating func deliver(_ record: PublishRecord, atMs nowMs: Int64) {
        shown = record
        lastDeliveryMs = nowMs
        pending = pending.filter { !$0.value.isAnswered(by: record, rules: rules) }
    }

    /// The tile a press of `actionId` would act on, or nil when the phone shows none.
    func tile(_ actionId: String) -> SwitchboardTile? {
        shown?.tiles.first(where: { $0.id == actionId })
    }

    /// The state a toggle press asks for: the opposite of what the tile shows.
    func requestedOn(for tile: SwitchboardTile, atMs nowMs: Int64) -> Bool {
        if let press = pending[tile.id], nowMs - press.pressedAtMs < rules.toggleWaitMs {
            return !press.requestedOn
        }
        return !tile.isOn
    }

    /// Records an accepted press.
    mutating func startWaiting(_ press: PendingPress) {
        pending[press.actionId] = press
    }

    /// Every tile as it looks at `nowMs` (after `advance`).
    func displays(atMs nowMs: Int64) -> [TileDisplay] {
        (shown?.tiles ?? []).map { tile in
            let published = tile.kind == .toggle ? tile.isOn : tile.isActive
            let state = pending[tile.id]?.waitingState(atMs: nowMs, rules: rules)
                ?? Self.restingState(of: tile)
            return TileDisplay(id: tile.id, label: tile.label, kind: tile.kind, state: state,
                               publishedOnOrActive: published)
        }
    }

    private static func restingState(of tile: SwitchboardTile) -> TileState {
        .resting(isToggle: tile.kind == .toggle, isShownOn: tile.kind == .toggle ? tile.isOn : tile.isActive)
    }
}
