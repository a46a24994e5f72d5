/// Every press against the commands the devices received: each command is
/// attributed to the latest earlier press of its action (presses of one
/// action are `SoakScheduler.pressGapMs` apart, far above the event lifetime).
///
/// A press is *required* (delivered unexpired and acceptable) when the
/// simulator wrote it on a stream to a bridge that had been running for
/// `settledMs` and kept running `graceMs` more, with the broker up from
/// `brokerMarginMs` before to `graceMs` after, and, for a toggle, its device
/// online, left alone, and not already in the asked state. A required press
/// must give exactly one command; no press may give two in one bridge run, a
/// `repeat_safe: false` press not even across restarts, and an expired press none.
struct PressAccounting {
    static let settledMs: Int64 = 5_000
    static let graceMs: Int64 = 3_000
    static let brokerMarginMs: Int64 = 10_000
    static let deviceCalmMs: Int64 = 3_000
    /// A press written in the last second of its 5 s life is not required: the
    /// bridge knows the server's clock from a `Date` header (1 s resolution, so
    /// ±0.5 s) and may rightly judge it expired (the 60-minute soak's 6 "lost"
    /// presses were all such replays, written 90-190 ms before their expiry by
    /// the bridge's estimate).
    static let expiryMarginMs: Int64 = 1_000
    static let lifetimeMs: Int64 = 5_000

    var required = 0
    /// Required presses by kind: toggles, buttons, `repeat_safe: false` buttons.
    var requiredByKind = (toggles: 0, buttons: 0, unsafe: 0)
    var exactlyOnce = 0
    var lost: [String] = []
    var duplicated: [String] = []
    var expiredCarriedOut: [String] = []
    var wrongCommand: [String] = []
    var unattributed = 0
    var commands = 0

    var failures: [String] {
        var lines: [String] = []
        if !lost.isEmpty { lines.append("lost presses: \(lost.prefix(20).joined(separator: ", "))") }
        if !duplicated.isEmpty { lines.append("presses carried out twice: \(duplicated.prefix(20).joined(separator: ", "))") }
        if !expiredCarriedOut.isEmpty { lines.append("expired presses carried out: \(expiredCarriedOut.prefix(20).joined(separator: ", "))") }
        if !wrongCommand.isEmpty { lines.append("commands for the wrong state: \(wrongCommand.prefix(20).joined(separator: ", "))") }
        if unattributed > 0 { lines.append("\(unattributed) command(s) before any press of their action") }
        return lines
    }

    init(ledger: SoakLedger, fleet: SoakFleet, recorder: SoakRecorder) {
        let allCommands = fleet.commands
        commands = allCommands.count
        var pressesByAction: [Int: [Int]] = [:]
        for (position, press) in ledger.presses.enumerated() { pressesByAction[press.action, default: []].append(position) }
        var attributed: [Int: [SoakFleet.Command]] = [:]
        for command in allCommands {
            let candidates = pressesByAction[command.actionIndex] ?? []
            guard let owner = candidates.last(where: { ledger.presses[$0].madeUs <= command.arrivedUs }) else {
                unattributed += 1
                continue
            }
            attributed[owner, default: []].append(command)
        }
        for (position, press) in ledger.presses.enumerated() {
            judge(press, commands: attributed[position] ?? [], ledger: ledger, fleet: fleet, recorder: recorder)
        }
    }

    private mutating func judge(_ press: SoakLedger.Press, commands: [SoakFleet.Command], ledger: SoakLedger,
                                fleet: SoakFleet, recorder: SoakRecorder) {
        let action = SoakConfig.actions[press.action]
        let name = "\(press.eventId) (\(action.id))"
        if press.isExpired {
            if !commands.isEmpty { expiredCarriedOut.append(name) }
            return
        }
        let perLifetime = Dictionary(grouping: commands) { ledger.lifetime(atUs: $0.arrivedUs) ?? -1 }
        let isDuplicated = action.isUnsafeButton ? commands.count > 1 : perLifetime.values.contains { $0.count > 1 }
        if isDuplicated { duplicated.append("\(name) ×\(commands.count) in runs \(perLifetime.keys.sorted())") }
        if action.isToggle, commands.contains(where: { $0.requestedOn != press.requestedOn }) { wrongCommand.append(name) }
        guard let writtenUs = recorder.firstWrittenUs(press.eventId),
              isRequired(press, action: action, writtenUs: writtenUs, ledger: ledger, fleet: fleet) else { return }
        required += 1
        if action.isToggle { requiredByKind.toggles += 1 } else if action.isUnsafeButton { requiredByKind.unsafe += 1 } else { requiredByKind.buttons += 1 }
        if commands.isEmpty { lost.append(name) } else if !isDuplicated { exactlyOnce += 1 }
    }

    private func isRequired(_ press: SoakLedger.Press, action: SoakAction, writtenUs: Int64, ledger: SoakLedger,
                            fleet: SoakFleet) -> Bool {
        let settledUs = Self.settledMs * 1000, graceUs = Self.graceMs * 1000
        guard writtenUs <= press.madeUs + (Self.lifetimeMs - Self.expiryMarginMs) * 1000 else { return false }
        guard let run = ledger.lifetime(atUs: writtenUs) else { return false }
        let lifetime = ledger.lifetimes[run]
        guard lifetime.startUs <= writtenUs - settledUs, (lifetime.endUs ?? .max) >= writtenUs + graceUs else { return false }
        let brokerWindow = (writtenUs - Self.brokerMarginMs * 1000)...(writtenUs + graceUs)
        let isBrokerDown = ledger.brokerOutages.contains { outage in
            (outage.startUs...(outage.endUs ?? .max)).overlaps(brokerWindow)
        }
        guard !isBrokerDown else { return false }
        guard action.isToggle else { return true }
        let calmUs = Self.deviceCalmMs * 1000
        guard fleet.wasOnline(action.index, fromUs: writtenUs - calmUs, toUs: writtenUs + calmUs),
              !fleet.wasDisturbed(action.index, fromUs: writtenUs - calmUs, toUs: writtenUs + calmUs),
              let truth = fleet.truth(action.index, atUs: writtenUs) else { return false }
        return truth.isOn != press.requestedOn
    }
}
