import Testing
@testable import BridgeCore

/// Issue 12 (lower), politeness: state-only PATCHes of a widget start at least
/// `min_publish_interval_ms` apart (leading edge at once, one trailing PATCH
/// of the latest content when the interval ends); an answer to a press is
/// never delayed; retries and `Retry-After` are never shortened.
@Suite("Politeness: the minimum publish interval")
struct PublishIntervalTests {
    static let fan = ActionKey(slug: "living-room", actionId: "fan")

    /// (timing default, the widget's own, how long the device flaps at one
    /// change per ms, how long each PATCH takes)
    @Test(arguments: [
        (Int64(200), Int64?.none, Int64(2_000), Int64(20)),
        (200, nil, 16_000, 20),
        (1_000, nil, 5_000, 30),
        (50, nil, 1_000, 80),      // PATCHes slower than the interval
        (0, 500, 3_000, 20),       // the widget's own setting wins
        (200, 1, 1_000, 0),        // 1 ms, instant PATCHes: still one per interval
    ])
    func aFlappingDeviceMakesAtMostOnePatchPerInterval(defaultMs: Int64, widgetMs: Int64?, durationMs: Int64, latencyMs: Int64) {
        var run = FlappingRun(defaultIntervalMs: defaultMs, widgetIntervalMs: widgetMs, latencyMs: latencyMs)
        run.flap(durationMs: durationMs)
        run.drain()
        let intervalMs = widgetMs ?? defaultMs
        let bound = (durationMs + intervalMs - 1) / intervalMs + 1
        #expect(run.starts.count <= bound, "\(run.starts.count) PATCHes in \(durationMs) ms, interval \(intervalMs) ms")
        #expect(run.starts.first?.atMs == 0, "the leading edge goes at once")
        #expect(run.closestStateOnlyStartsMs.map { $0 >= intervalMs } ?? true, "state-only PATCHes closer than the interval")
        #expect(run.harness.bridge.states[Self.fan]?.isOn == run.lastSentOn, "the tile ends on the device's last state")
        #expect(run.harness.bridge.acknowledgedBody(slug: "living-room") == run.harness.bridge.renderedBody(slug: "living-room"))
    }

    @Test func intervalZeroIsTheOldBehaviour() {
        var run = FlappingRun(defaultIntervalMs: 0, widgetIntervalMs: nil, latencyMs: 20)
        run.flap(durationMs: 1_000)
        run.drain()
        #expect(run.starts.count >= 49, "back to back, one PATCH per 20 ms answer: \(run.starts.count)")
        #expect(!run.everStartedAnInterval)
        #expect(run.harness.bridge.acknowledgedBody(slug: "living-room") == run.harness.bridge.renderedBody(slug: "living-room"))
    }

    @Test func aChangeInsideTheIntervalGoesAtItsEndWithTheLatestContent() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let leading = harness.message("home/fan/state", "{\"power\":\"OFF\"}")
        #expect(leading.patches.count == 1 && leading.patches[0].answersPress == false)
        #expect(leading.contains(.startTimer(.publishInterval(slug: "living-room"), afterMs: 200)))
        harness.ackAll(leading)
        #expect(harness.message("home/fan/state", "{\"power\":\"ON\"}").patches.isEmpty)
        #expect(harness.message("stat/fountain/POWER", "ON").patches.isEmpty)
        let trailing = harness.send(.timerFired(.publishInterval(slug: "living-room")))
        #expect(trailing.patches.count == 1)
        #expect(trailing.patches.first?.body == harness.bridge.renderedBody(slug: "living-room"))
        #expect(trailing.contains(.startTimer(.publishInterval(slug: "living-room"), afterMs: 200)))
        harness.ackAll(trailing)
        #expect(harness.send(.timerFired(.publishInterval(slug: "living-room"))).patches.isEmpty, "nothing new: no PATCH")
        #expect(harness.message("home/fan/state", "{\"power\":\"OFF\"}").patches.count == 1, "after a quiet interval: at once")
    }

    @Test func theIntervalIsPerWidget() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        harness.ackAll(harness.message("home/fan/state", "{\"power\":\"OFF\"}"))
        #expect(harness.message("home/fan/state", "{\"power\":\"ON\"}").patches.isEmpty)
        let garden = harness.press("lamp", widget: "garden", value: true, id: "evt_lamp")
        #expect(garden.patches.map(\.slug) == ["garden"])
    }

    @Test func aButtonPressInsideTheIntervalIsAnsweredAtOnceWithTheLatestContent() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        harness.ackAll(harness.message("home/fan/state", "{\"power\":\"OFF\"}"))
        #expect(harness.message("home/fan/state", "{\"power\":\"ON\"}").patches.isEmpty)
        let press = harness.press("feed_cat", kind: "button", value: nil, id: "evt_cat")
        #expect(press.patches.count == 1)
        #expect(press.patches.first?.answersPress == true)
        #expect(press.patches.first?.body == harness.bridge.renderedBody(slug: "living-room"))
        #expect(press.contains(.startTimer(.publishInterval(slug: "living-room"), afterMs: 200)), "the interval restarts")
        harness.ackAll(press)
        #expect(harness.message("home/fan/state", "{\"power\":\"OFF\"}").patches.isEmpty, "state changes wait again")
    }

    @Test func aToggleConfirmedInsideTheIntervalIsAnsweredAtOnce() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        harness.ackAll(harness.message("home/fan/state", "{\"power\":\"OFF\"}"))
        #expect(harness.press("fan", value: true, id: "evt_fan").patches.isEmpty, "waits for the device")
        let confirmed = harness.message("home/fan/state", "{\"power\":\"ON\"}")
        #expect(confirmed.patches.count == 1)
        #expect(confirmed.patches.first?.answersPress == true)
    }

    @Test func aRateLimitWaitIsNeverShortenedByTheInterval() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let request = harness.message("home/fan/state", "{\"power\":\"OFF\"}").patches[0]
        let limited = harness.send(.patchCompleted(slug: "living-room", requestId: request.requestId,
                                                   outcome: .status(429, retryAfterMs: 2_000)))
        #expect(limited.contains(.startTimer(.publishRetry(slug: "living-room"), afterMs: 2_000)))
        #expect(harness.send(.timerFired(.publishInterval(slug: "living-room"))).patches.isEmpty)
        #expect(harness.message("home/fan/state", "{\"power\":\"ON\"}").patches.isEmpty)
        #expect(harness.press("feed_cat", kind: "button", value: nil, id: "evt_cat").patches.isEmpty, "nor by a press")
        let retried = harness.send(.timerFired(.publishRetry(slug: "living-room")))
        #expect(retried.patches.count == 1)
        #expect(retried.patches.first?.body == harness.bridge.renderedBody(slug: "living-room"))
    }

    @Test func aShortRetryWaitsForALongInterval() {
        var config = BridgeConfig.sample
        config.timing.minPublishIntervalMs = 5_000
        var harness = BridgeHarness(config: config)
        harness.connectAndSettle()
        let request = harness.message("home/fan/state", "{\"power\":\"OFF\"}").patches[0]
        harness.send(.patchCompleted(slug: "living-room", requestId: request.requestId, outcome: .status(500)))
        #expect(harness.send(.timerFired(.publishRetry(slug: "living-room"))).patches.isEmpty)
        let atIntervalEnd = harness.send(.timerFired(.publishInterval(slug: "living-room")))
        #expect(atIntervalEnd.patches.count == 1)
    }

    /// The interval is a timer on the shell's monotonic clock: a step of the
    /// board's wall clock, either way, neither stalls nor shortens it.
    @Test(arguments: [Int64(-3_600_000), Int64(-31_536_000_000), Int64(3_600_000), Int64(-1_800_000_000_000)])
    func aClockStepNeitherStallsNorShortensTheInterval(stepMs: Int64) {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let leading = harness.message("home/fan/state", "{\"power\":\"OFF\"}")
        harness.ackAll(leading)
        harness.advance(ms: stepMs)
        #expect(harness.message("home/fan/state", "{\"power\":\"ON\"}").patches.isEmpty)
        let trailing = harness.send(.timerFired(.publishInterval(slug: "living-room")))
        #expect(trailing.patches.count == 1)
        #expect(trailing.contains(.startTimer(.publishInterval(slug: "living-room"), afterMs: 200)))
    }

    @Test func aRemovedWidgetsIntervalIsCancelled() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        harness.ackAll(harness.press("lamp", widget: "garden", value: true, id: "evt_lamp"))
        var config = BridgeConfig.sample
        config.widgets.removeAll { $0.slug == "garden" }
        let reloaded = harness.send(.configReloaded(config))
        #expect(reloaded.contains(.cancelTimer(.publishInterval(slug: "garden"))))
        #expect(harness.send(.timerFired(.publishInterval(slug: "garden"))).patches.isEmpty)
    }

    // MARK: - The setting

    @Test func theSettingIsReadFromTimingAndFromAWidget() {
        let text = "aivi:\n  token_env: T\ntiming:\n  min_publish_interval_ms: 750\nwidgets:\n  - slug: w\n"
            + "    min_publish_interval_ms: 0\n    actions:\n      - id: a\n        label: A\n        publish: {topic: a, payload: b}\n"
            + "  - slug: v\n    actions:\n      - id: a\n        label: A\n        publish: {topic: a, payload: b}\n"
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(result.diagnostics.isEmpty, "\(result.rendered())")
        #expect(result.config?.timing.minPublishIntervalMs == 750)
        #expect(result.config?.widgets.map(\.minPublishIntervalMs) == [0, nil])
        #expect(BridgeConfig().timing.minPublishIntervalMs == 200)
    }

    /// (the setting's line, its line and column in the file, the message)
    @Test(arguments: [
        ("timing:\n  min_publish_interval_ms: 60001\n", 4, 28, "'min_publish_interval_ms' in 'timing' must be between 0 and 60000 (it is 60001)"),
        ("timing:\n  min_publish_interval_ms: -1\n", 4, 28, "must be between 0 and 60000 (it is -1)"),
        ("timing:\n  min_publish_interval_ms: 99999999999999999999\n", 4, 28, "'min_publish_interval_ms' in 'timing'"),
        ("timing:\n  min_publish_interval_ms: fast\n", 4, 28, "'min_publish_interval_ms' in 'timing' must be a whole number"),
        ("timing:\n  min_publis_interval_ms: 100\n", 4, 3, "did you mean 'min_publish_interval_ms'?"),
    ])
    func checkReportsABadTimingValueOnItsLine(yaml: String, line: Int, column: Int, message: String) {
        let text = "aivi:\n  token_env: T\n" + yaml + "widgets:\n  - slug: w\n    actions:\n      - id: a\n        label: A\n        publish: {topic: a}\n"
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        let matching = result.diagnostics.first { $0.message.contains(message) }
        #expect(matching?.location == SourceLocation(line: line, column: column), "\(result.rendered())")
    }

    @Test func checkReportsABadWidgetValueOnItsLine() {
        let text = "aivi:\n  token_env: T\nwidgets:\n  - slug: w\n    min_publish_interval_ms: 120000\n    actions:\n"
            + "      - id: a\n        label: A\n        publish: {topic: a}\n"
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        let matching = result.diagnostics.first { $0.message.contains("'min_publish_interval_ms'") }
        #expect(matching?.location == SourceLocation(line: 5, column: 30), "\(result.rendered())")
        #expect(matching?.message.contains("between 0 and 60000 (it is 120000)") == true, "\(result.rendered())")
    }
}

/// A device flipping the fan every millisecond while the service answers each
/// PATCH after `latencyMs`; timers and PATCHes run on a monotonic clock.
struct FlappingRun {
    var harness: BridgeHarness
    let latencyMs: Int64
    var nowMs: Int64 = 0
    var timersAtMs: [BridgeTimer: Int64] = [:]
    var inFlight: (request: PatchRequest, doneAtMs: Int64)?
    var starts: [(atMs: Int64, request: PatchRequest)] = []
    var lastSentOn = true   // the fan settled on: the first flip is a change
    var everStartedAnInterval = false

    init(defaultIntervalMs: Int64, widgetIntervalMs: Int64?, latencyMs: Int64) {
        var config = BridgeConfig.sample
        config.timing.minPublishIntervalMs = defaultIntervalMs
        config.widgets[0].minPublishIntervalMs = widgetIntervalMs
        harness = BridgeHarness(config: config)
        harness.connectAndSettle()
        self.latencyMs = latencyMs
    }

    /// The closest two state-only PATCH starts came to any earlier start.
    var closestStateOnlyStartsMs: Int64? {
        zip(starts, starts.dropFirst()).filter { !$0.1.request.answersPress }.map { $0.1.atMs - $0.0.atMs }.min()
    }

    mutating func flap(durationMs: Int64) {
        for ms in 0..<durationMs {
            runDue(upToMs: ms)
            lastSentOn.toggle()
            perform(harness.message("home/fan/state", lastSentOn ? "{\"power\":\"ON\"}" : "{\"power\":\"OFF\"}"))
        }
    }

    /// Runs until no PATCH is in flight and no publish timer waits.
    mutating func drain() {
        for _ in 0..<10_000 where inFlight != nil || !timersAtMs.isEmpty {
            let next = [inFlight?.doneAtMs, timersAtMs.values.min()].compactMap { $0 }.min() ?? nowMs
            runDue(upToMs: next)
        }
    }

    mutating func runDue(upToMs targetMs: Int64) {
        while true {
            let timer = timersAtMs.min { $0.value < $1.value }
            let patchDueMs = inFlight?.doneAtMs ?? .max
            let timerDueMs = timer?.value ?? .max
            guard min(patchDueMs, timerDueMs) <= targetMs else { break }
            if patchDueMs <= timerDueMs, let sent = inFlight {
                advance(to: patchDueMs)
                inFlight = nil
                perform(harness.send(.patchCompleted(slug: sent.request.slug, requestId: sent.request.requestId, outcome: .status(200))))
            } else if let (due, atMs) = timer {
                advance(to: atMs)
                timersAtMs[due] = nil
                perform(harness.send(.timerFired(due)))
            }
        }
        advance(to: targetMs)
    }

    mutating func advance(to ms: Int64) {
        harness.advance(ms: max(0, ms - nowMs))
        nowMs = max(nowMs, ms)
    }

    mutating func perform(_ effects: [BridgeEffect]) {
        for effect in effects {
            switch effect {
            case .sendPatch(let request) where request.slug == "living-room":
                precondition(inFlight == nil, "two PATCHes in flight")
                starts.append((nowMs, request))
                if latencyMs == 0 {
                    perform(harness.send(.patchCompleted(slug: request.slug, requestId: request.requestId, outcome: .status(200))))
                } else {
                    inFlight = (request, nowMs + latencyMs)
                }
            case .startTimer(let timer, let afterMs):
                guard case .publishInterval("living-room") = timer else { continue }
                everStartedAnInterval = true
                timersAtMs[timer] = nowMs + afterMs
            case .cancelTimer(let timer):
                timersAtMs[timer] = nil
            default:
                break
            }
        }
    }
}
