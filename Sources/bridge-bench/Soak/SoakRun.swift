import AiviSim
import BridgeCore
import Glibc
import ShellSupport

/// The soak: rounds of seeded traffic and faults against the bridge binary,
/// each ending in a quiet checkpoint, then the verdict and the table.
struct SoakRun {
    let settings: SoakSettings
    let world: SoakWorld
    var scheduler: SoakScheduler

    /// Runs the whole soak and returns its report.
    static func run(settings: SoakSettings, bridgeExecutable: String) throws -> SoakReport {
        var random = SoakRandom(seed: settings.seed ^ 0x5EED)
        let world = try SoakWorld(bridgeExecutable: bridgeExecutable, random: &random, sampleIntervalMs: settings.sampleIntervalMs)
        defer { world.stop() }
        progress("seed \(settings.seed), \(settings.rounds) rounds of \(settings.intensity.trafficMs / 1000) s, broker on port \(world.brokerPort), simulator at \(world.simulator.baseURL), files in \(world.directory)")
        var run = SoakRun(settings: settings, world: world,
                          scheduler: SoakScheduler(seed: settings.seed, intensity: settings.intensity, actions: SoakConfig.actions))
        let startedUs = MonotonicClock.nowUs()
        guard world.fleet.waitUntilConnected(timeoutMs: 10_000) else { throw BenchFailure("the soak's devices did not connect") }
        try world.startBridge()
        try run.checkpoint(round: 0)
        for round in 1...settings.rounds {
            try run.play(round: round)
            try run.checkpoint(round: round)
        }
        let wallUs = MonotonicClock.nowUs() - startedUs
        world.sampler.watch(pid: nil, lifetime: -1)
        let report = SoakReport(settings: settings, world: world, wallUs: wallUs)
        world.stop()
        if report.isPassed { DirectoryTree.remove(world.directory) }
        return report
    }

    static func progress(_ line: String) {
        StandardErrorWriter.writeLine("bridge-soak: \(line)")
    }

    // MARK: traffic

    mutating func play(round: Int) throws {
        let steps = scheduler.round(round)
        let roundStartUs = MonotonicClock.nowUs()
        Self.progress("round \(round)/\(settings.rounds): \(steps.count) steps")
        for planned in steps {
            BenchPause.microseconds(roundStartUs + Int64(planned.atMs) * 1000 - MonotonicClock.nowUs())
            try perform(planned.step)
            if world.hasBridgeDied { throw BenchFailure("the bridge exited by itself (see \(world.ledger.lifetimes.last?.logPath ?? "?"))") }
        }
        BenchPause.microseconds(roundStartUs + Int64(settings.intensity.trafficMs) * 1000 - MonotonicClock.nowUs())
    }

    private mutating func perform(_ step: SoakStep) throws {
        let simulator = world.simulator
        switch step {
        case .press(let action, let phone):
            press(SoakConfig.actions[action], phone: phone)
        case .expiredPress(let action, let ageMs):
            let target = SoakConfig.actions[action]
            let id = simulator.injectPress(widget: target.slug, action: target.id, kind: .button, ageMs: ageMs)
            world.ledger.presses.append(SoakLedger.Press(eventId: id, action: action, requestedOn: nil,
                                                         madeUs: MonotonicClock.nowUs(), isExpired: true))
            world.ledger.count("expired press delivered")
        case .deviceChange(let action, let isOn):
            world.fleet.change(action, isOn: isOn)
            world.ledger.deviceChanges += 1
        case .deviceOnline(let action, let isOnline):
            world.fleet.setOnline(action, isOnline)
            if !isOnline { world.ledger.offlineEpisodes += 1 }
        case .dropStream(let mode):
            simulator.dropEventStreams(mode)
            world.ledger.streamFaultsUs.append(MonotonicClock.nowUs())
            world.ledger.count(mode == .close ? "event stream closed" : "event stream half-open")
        case .failPatches(let count, let status, let retryAfterS):
            simulator.failNextPatches(count: count, status: status, retryAfterSeconds: retryAfterS)
            world.ledger.count(status == 429 ? "PATCH 429 + Retry-After" : "PATCH 5xx")
        case .resetPatches(let count):
            simulator.resetNextPatches(count: count)
            world.ledger.count("PATCH connection reset")
        case .delayAnswers(let ms):
            simulator.delayAnswers(milliseconds: ms)
            if ms >= 15_000 { world.ledger.count("PATCH timeout (16 s answer)") } else if ms > 0 { world.ledger.count("PATCH slow answers") }
        case .duplicateEvents(let count):
            simulator.duplicateNextEvents(count: count)
            world.ledger.count("event delivered twice")
        case .injectEvent(let kind):
            simulator.injectEvent(kind)
            world.ledger.count(kind == .malformed ? "malformed event" : "unknown event type")
        case .reload(let variant, let isBroken):
            guard world.isBridgeRunning else { return }
            try world.reload(variant: variant, isBroken: isBroken)
            world.ledger.count(isBroken ? "SIGHUP, bad config" : "SIGHUP, good config")
        case .restoreConfig:
            try world.reload(variant: world.configVariant, isBroken: false)
        case .brokerDown(let isKill):
            world.stopBroker(isKill: isKill)
            world.ledger.count(isKill ? "broker killed -9" : "broker stopped cleanly")
        case .brokerUp:
            try world.startBroker()
        case .bridgeDown(let isKill):
            world.stopBridge(isKill: isKill)
            world.ledger.count(isKill ? "bridge killed -9" : "bridge stopped (SIGTERM)")
        case .bridgeUp:
            try world.startBridge()
        }
    }

    private func press(_ action: SoakAction, phone: String) {
        let outcome = world.simulator.press(phone: phone, widget: action.slug, action: action.id)
        guard outcome.isAccepted, let id = outcome.eventId else {
            world.ledger.refusedPresses[outcome.refusal?.rawValue ?? "?", default: 0] += 1
            return
        }
        let requested = action.isToggle ? world.simulator.events().last(where: { $0.id == id })?.value : nil
        world.ledger.presses.append(SoakLedger.Press(eventId: id, action: action.index, requestedOn: requested,
                                                     madeUs: MonotonicClock.nowUs(), isExpired: false))
    }

    // MARK: quiet checkpoints

    /// Traffic stops and faults are cleared; waits (up to `settleTimeoutMs`) until
    /// every widget's last accepted content shows every device's truth and the
    /// stream is open, then reads the bridge's resources.
    mutating func checkpoint(round: Int) throws {
        world.simulator.clearFaults()
        if world.broker == nil { try world.startBroker() }
        if !world.isBridgeRunning { try world.startBridge() }
        if world.isConfigBroken { try world.reload(variant: world.configVariant, isBroken: false) }
        let startUs = MonotonicClock.nowUs()
        let deadlineUs = startUs + Int64(settings.settleTimeoutMs) * 1000
        var stale = staleWidgets()
        while MonotonicClock.nowUs() < deadlineUs {
            if world.hasBridgeDied { throw BenchFailure("the bridge exited by itself (see \(world.ledger.lifetimes.last?.logPath ?? "?"))") }
            if stale.isEmpty && world.simulator.openEventStreamCount > 0 {
                BenchPause.milliseconds(1_000)
                stale = staleWidgets()
                if stale.isEmpty { break }
            }
            BenchPause.milliseconds(100)
            stale = staleWidgets()
        }
        let settleMs = (MonotonicClock.nowUs() - startUs) / 1000
        let resources = quietResources()
        let census = resources.map { FDCensus.describe($0.census) } ?? ""
        world.ledger.checkpoints.append(SoakLedger.Checkpoint(
            round: round, lifetime: world.currentLifetime, isTruthShown: stale.isEmpty, settleMs: settleMs,
            staleDetail: stale.joined(separator: "; "), fds: resources?.fds ?? -1, threads: resources?.threads ?? -1,
            anonKB: resources?.anonKB ?? -1, fdCensus: census))
        Self.progress("checkpoint \(round): \(stale.isEmpty ? "every widget shows the truth" : "STALE: " + stale.joined(separator: "; ")) after \(settleMs) ms; fds \(resources?.fds ?? -1) (\(census)), threads \(resources?.threads ?? -1), RssAnon \(resources?.anonKB ?? -1) kB")
    }

    /// The widgets whose last accepted content differs from the devices' truth, with what differs.
    func staleWidgets() -> [String] {
        var stale: [String] = []
        for slug in SoakConfig.slugs {
            guard let content = world.recorder.lastContent(slug) else {
                stale.append("\(slug): never published")
                continue
            }
            let shown = Dictionary(SwitchboardTile.tiles(in: content).map { ($0.id, $0.isOn) }) { first, _ in first }
            let wrong = SoakConfig.actions.filter { $0.slug == slug && $0.isToggle }.filter { action in
                let truth = world.fleet.truth(action.index)
                return shown[action.id] != (truth.isOn && truth.isOnline)
            }
            if !wrong.isEmpty { stale.append("\(slug): \(wrong.map(\.id).joined(separator: ","))") }
        }
        return stale
    }

    /// The bridge's fds, threads and RssAnon once its connections are the quiet
    /// set: one to the broker, two to the service (event stream and PATCH), both
    /// made afresh at each checkpoint if need be (a PATCH connection closed by a
    /// fault or the server's idle timeout, a stream between retries, is not a
    /// leak nor a loss). Waits up to 20 s for that set, else reads what there is.
    private func quietResources() -> (fds: Int, threads: Int, anonKB: Int64, census: [String: Int])? {
        guard let pid = world.ledger.lifetimes.last?.pid else { return nil }
        let names = [world.brokerPort: "broker", world.simulator.port: "aivi"]
        let deadlineUs = MonotonicClock.nowUs() + 20_000_000
        var census = FDCensus.counts(pid: pid, portNames: names)
        var nudged = false
        while MonotonicClock.nowUs() < deadlineUs {
            if census["tcp→aivi ESTABLISHED"] == 2 && census["tcp→broker ESTABLISHED"] == 1 && census.count == census.filter({ !$0.key.contains("WAIT") }).count { break }
            if !nudged, census["tcp→aivi ESTABLISHED", default: 0] < 2 {
                // A wall switch: its PATCH opens the PATCH connection again.
                let toggle = SoakConfig.actions.first { $0.isToggle }?.index ?? 0
                world.fleet.change(toggle, isOn: !world.fleet.truth(toggle).isOn)
                nudged = true
            }
            BenchPause.milliseconds(200)
            census = FDCensus.counts(pid: pid, portNames: names)
        }
        guard let sample = ResourceSampler.read(pid: pid, lifetime: world.currentLifetime, idFilePath: world.idFilePath) else { return nil }
        return (census.values.reduce(0, +), sample.threads, sample.anonKB, census)
    }
}
