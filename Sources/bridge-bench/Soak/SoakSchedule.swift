import AiviSim

/// One thing the soak does at a planned time.
enum SoakStep: Sendable {
    case press(action: Int, phone: String)
    /// A well-formed press older than its lifetime, delivered anyway (must not run).
    case expiredPress(action: Int, ageMs: Int64)
    case deviceChange(action: Int, isOn: Bool)
    case deviceOnline(action: Int, isOnline: Bool)
    case dropStream(StreamDropMode)
    case failPatches(count: Int, status: Int, retryAfterS: Int?)
    case resetPatches(count: Int)
    case delayAnswers(ms: Int)
    case duplicateEvents(count: Int)
    case injectEvent(InjectedEventKind)
    case reload(variant: Int, isBroken: Bool)
    case restoreConfig
    case brokerDown(isKill: Bool)
    case brokerUp
    case bridgeDown(isKill: Bool)
    case bridgeUp
}

/// A step at `atMs` from the start of its round.
struct PlannedStep: Sendable {
    var atMs: Int
    var step: SoakStep
}

/// How busy each round is. `full` is the default run; `quick` forces one of
/// every fault into a few short rounds (for CI).
struct SoakIntensity: Sendable {
    var trafficMs: Int
    var faultChance: Double
    var bridgeRestartChance: Double
    var brokerRestartChance: Double
    var chatterEpisodes: Int
    var offlineEpisodes: Int
    /// Quick runs: the round in which the bridge is killed for sure.
    var forcedBridgeKillRound: Int?
    /// Quick runs force each fault's variants in turn (odd and even rounds).
    var isQuick = false

    static let full = SoakIntensity(trafficMs: 50_000, faultChance: 0.5, bridgeRestartChance: 0.2,
                                    brokerRestartChance: 0.3, chatterEpisodes: 4, offlineEpisodes: 2,
                                    forcedBridgeKillRound: nil)
    static let quick = SoakIntensity(trafficMs: 16_000, faultChance: 1.0, bridgeRestartChance: 0,
                                     brokerRestartChance: 1.0, chatterEpisodes: 2, offlineEpisodes: 1,
                                     forcedBridgeKillRound: 1, isQuick: true)
}

/// The seeded plan of a round: presses at about the service's rate limits
/// (with bursts that it refuses in part), devices changing by themselves,
/// chattering and going offline, and faults of every kind.
struct SoakScheduler {
    static let phones = ["phone-1", "phone-2", "phone-3"]
    /// Two presses of one action are at least this far apart, so every command
    /// is attributed to exactly one press (well above the 5 s event lifetime).
    static let pressGapMs = 10_000

    var random: SoakRandom
    let intensity: SoakIntensity
    let actions: [SoakAction]
    /// When each action was last pressed, in ms of planned time since the run started.
    private var lastPressMs: [Int]
    private var elapsedMs = 0
    private var configVariant = 0

    init(seed: UInt64, intensity: SoakIntensity, actions: [SoakAction]) {
        random = SoakRandom(seed: seed)
        self.intensity = intensity
        self.actions = actions
        lastPressMs = actions.map { _ in -Self.pressGapMs }
    }

    /// The steps of round `round`, in time order.
    mutating func round(_ round: Int) -> [PlannedStep] {
        var steps: [PlannedStep] = []
        planPresses(&steps)
        planDevices(&steps)
        planFaults(round, &steps)
        elapsedMs += intensity.trafficMs
        return steps.sorted { $0.atMs < $1.atMs }
    }

    private mutating func planPresses(_ steps: inout [PlannedStep]) {
        var atMs = 300
        while atMs < intensity.trafficMs - 1_500 {
            let isBurst = random.chance(0.08)
            for offset in 0..<(isBurst ? 6 : 1) {
                let pressAtMs = atMs + offset * 50
                if let action = pickAction(atMs: pressAtMs, wantButton: random.chance(0.4)) {
                    steps.append(PlannedStep(atMs: pressAtMs, step: .press(action: action, phone: random.element(Self.phones))))
                }
            }
            if random.chance(0.08), let action = pickAction(atMs: atMs + 400, wantButton: true) {
                steps.append(PlannedStep(atMs: atMs + 400, step: .expiredPress(action: action, ageMs: Int64(random.int(6_000...30_000)))))
            }
            atMs += random.int(800...1_400)
        }
    }

    /// An action not pressed in the last `pressGapMs` (a button if asked and possible).
    private mutating func pickAction(atMs: Int, wantButton: Bool) -> Int? {
        let nowMs = elapsedMs + atMs
        let free = actions.filter { nowMs - lastPressMs[$0.index] >= Self.pressGapMs && $0.isToggle != wantButton }
        guard !free.isEmpty else { return nil }
        let chosen = random.element(free).index
        lastPressMs[chosen] = nowMs
        return chosen
    }

    private mutating func planDevices(_ steps: inout [PlannedStep]) {
        let toggles = actions.filter(\.isToggle).map(\.index)
        var atMs = 500
        while atMs < intensity.trafficMs - 2_000 {
            steps.append(PlannedStep(atMs: atMs, step: .deviceChange(action: random.element(toggles), isOn: random.bool())))
            atMs += random.int(1_500...4_000)
        }
        for _ in 0..<intensity.chatterEpisodes {
            let device = random.element(toggles)
            var chatterMs = random.int(1_000...(intensity.trafficMs - 10_000))
            let endMs = chatterMs + random.int(3_000...8_000)
            while chatterMs < endMs {
                steps.append(PlannedStep(atMs: chatterMs, step: .deviceChange(action: device, isOn: random.bool())))
                chatterMs += random.int(10...40)
            }
        }
        for _ in 0..<intensity.offlineEpisodes {
            let device = random.element(toggles)
            let startMs = random.int(1_000...(intensity.trafficMs - 12_000))
            let endMs = startMs + random.int(2_000...10_000)
            steps.append(PlannedStep(atMs: startMs, step: .deviceOnline(action: device, isOnline: false)))
            if random.bool() {
                steps.append(PlannedStep(atMs: startMs + 1_000, step: .deviceChange(action: device, isOn: random.bool())))
            }
            steps.append(PlannedStep(atMs: endMs, step: .deviceOnline(action: device, isOnline: true)))
        }
    }

    private mutating func planFaults(_ round: Int, _ steps: inout [PlannedStep]) {
        let lastMs = intensity.trafficMs - 4_000
        func maybe(_ body: (inout SoakScheduler) -> Void) {
            if random.chance(intensity.faultChance) { body(&self) }
        }
        maybe { $0.add(&steps, $0.randomAt(lastMs), .dropStream(.close)) }
        maybe { $0.add(&steps, $0.randomAt(lastMs), .dropStream(.halfOpen)) }
        maybe { $0.add(&steps, $0.randomAt(lastMs), .failPatches(count: $0.random.int(1...3), status: $0.random.element([500, 502, 503]), retryAfterS: nil)) }
        maybe { $0.add(&steps, $0.randomAt(lastMs), .failPatches(count: $0.random.int(1...2), status: 429, retryAfterS: $0.random.int(1...3))) }
        maybe { $0.add(&steps, $0.randomAt(lastMs), .resetPatches(count: $0.random.int(1...2))) }
        maybe { scheduler in
            let startMs = scheduler.randomAt(lastMs - 5_000)
            scheduler.add(&steps, startMs, .delayAnswers(ms: scheduler.random.int(200...1_500)))
            scheduler.add(&steps, startMs + scheduler.random.int(2_000...5_000), .delayAnswers(ms: 0))
        }
        if random.chance(intensity.faultChance * 0.3) {
            // Longer than the bridge's 15 s PATCH timeout: that PATCH times out.
            let startMs = randomAt(lastMs)
            add(&steps, startMs, .delayAnswers(ms: 16_000))
            add(&steps, startMs + 800, .delayAnswers(ms: 0))
        }
        maybe { $0.add(&steps, $0.randomAt(lastMs), .duplicateEvents(count: $0.random.int(2...4))) }
        let isOddRound = round % 2 == 1
        let isQuick = intensity.isQuick
        maybe { $0.add(&steps, $0.randomAt(lastMs), .injectEvent((isQuick ? isOddRound : $0.random.bool()) ? .malformed : .unknownType)) }
        maybe { scheduler in
            scheduler.configVariant += 1
            let isBroken = isQuick ? isOddRound : scheduler.random.chance(0.4)
            let startMs = scheduler.randomAt(lastMs - 3_000)
            scheduler.add(&steps, startMs, .reload(variant: scheduler.configVariant, isBroken: isBroken))
            if isBroken { scheduler.add(&steps, startMs + scheduler.random.int(500...2_500), .restoreConfig) }
        }
        if random.chance(intensity.brokerRestartChance) {
            let startMs = randomAt(lastMs - 4_000)
            add(&steps, startMs, .brokerDown(isKill: isQuick ? !isOddRound : random.chance(0.6)))
            add(&steps, startMs + random.int(300...3_000), .brokerUp)
        }
        if random.chance(intensity.bridgeRestartChance) || intensity.forcedBridgeKillRound == round {
            let startMs = randomAt(lastMs - 4_000)
            add(&steps, startMs, .bridgeDown(isKill: intensity.forcedBridgeKillRound == round || random.chance(0.75)))
            add(&steps, startMs + random.int(200...3_000), .bridgeUp)
        }
    }

    private mutating func randomAt(_ lastMs: Int) -> Int { random.int(1_500...max(1_500, lastMs)) }

    private func add(_ steps: inout [PlannedStep], _ atMs: Int, _ step: SoakStep) {
        steps.append(PlannedStep(atMs: atMs, step: step))
    }
}
