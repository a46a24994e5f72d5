import Testing
@testable import BridgeCore

/// Issue 19 items 2, 3 and 9 (event ids): an id of an action not safe to repeat
/// is never forgotten early, whatever `dedupe_capacity` and `dedupe_margin_ms`
/// say, the server clock's uncertainty counts in the forget decision, and ids
/// are told apart by their bytes.
@Suite("Unsafe event ids are never forgotten early")
struct UnsafeDedupeTests {

    /// The reproducer of item 2: capacity 16, 17 other presses inside the unsafe
    /// press's life, then a redelivery of it.
    @Test func aSmallCapacityNeverEvictsAnUnsafeId() {
        var config = BridgeConfig.sample
        config.timing.dedupeCapacity = 16   // below what `check` accepts: the core must not rely on it
        var harness = BridgeHarness(config: config)
        harness.connectAndSettle()
        #expect(harness.press("feed_cat", kind: "button", value: nil, id: "evt_cat").recorded.map(\.id) == ["evt_cat"])
        var forgotten: [String] = []
        for index in 0..<40 {
            let effects = harness.press("movie", kind: "button", value: nil, id: "evt_movie_\(index)")
            forgotten += effects.forgotten
            #expect(effects.recorded.isEmpty)
        }
        #expect(harness.bridge.dedupe.safeCount == 16)
        #expect(forgotten.isEmpty, "the unsafe id is not forgotten by capacity")
        let replay = harness.press("feed_cat", kind: "button", value: nil, id: "evt_cat", ageMs: 1_000)
        #expect(replay.mqttPublishes.isEmpty, "the unsafe press ran twice")
        #expect(replay.drops == [.duplicate])
    }

    @Test func marginZeroIsRaisedToTheFloor() {
        var config = BridgeConfig.sample
        config.timing.dedupeMarginMs = 0
        var harness = BridgeHarness(config: config)
        harness.connectAndSettle()
        _ = harness.press("feed_cat", kind: "button", value: nil, id: "evt_cat", ageMs: 0)
        // Expired, the margin asked for (0) past, the clock's uncertainty past: still remembered.
        harness.advance(ms: 5_000 + HTTPDate.uncertaintyMs + 500)
        let other = harness.press("movie", kind: "button", value: nil, id: "evt_other")
        #expect(other.forgotten.isEmpty, "the unsafe set must not shrink before the floor")
        #expect(harness.bridge.dedupe.contains("evt_cat"))
        harness.advance(ms: DedupeMemory.minMarginMs)
        let later = harness.press("movie", kind: "button", value: nil, id: "evt_later")
        #expect(later.forgotten == ["evt_cat"])
        #expect(!harness.bridge.dedupe.contains("evt_cat"))
    }

    @Test(arguments: [
        // (ms past expiry + margin, uncertainty, forgotten)
        (Int64(500), Int64(1_000), false),
        (Int64(1_000), Int64(1_000), false),
        (Int64(1_001), Int64(1_000), true),
        (Int64(1), Int64(0), true),
        (Int64(86_400_000), Int64.max, false),
    ])
    func theForgetDecisionCountsTheClocksUncertainty(pastMs: Int64, uncertaintyMs: Int64, forgotten: Bool) {
        let expiresAtMs: Int64 = 1_800_000_000_000
        var memory = DedupeMemory(marginMs: DedupeMemory.minMarginMs, capacity: 100,
                                  remembered: [RememberedEvent(id: "evt_cat", expiresAtMs: expiresAtMs)])
        let now = expiresAtMs + DedupeMemory.minMarginMs + pastMs
        let changed = memory.forgetExpired(serverClockMs: now, uncertaintyMs: uncertaintyMs)
        #expect(changed == (forgotten ? ["evt_cat"] : []))
        #expect(memory.contains("evt_cat") == !forgotten)
    }

    @Test func aFullUnsafeMemoryRefusesTheNewPressAndKeepsTheOldIds() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let far = harness.clockMs + 3_600_000
        harness.bridge.dedupe = DedupeMemory(
            marginMs: 60_000, capacity: 100,
            remembered: (0..<DedupeMemory.maxUnsafeIds).map { RememberedEvent(id: "old_\($0)", expiresAtMs: far) })
        let refused = harness.press("feed_cat", kind: "button", value: nil, id: "evt_new")
        #expect(refused.mqttPublishes.isEmpty)
        #expect(refused.drops == [.memoryFull])
        #expect(refused.patches.count == 1, "answered with the true state")
        #expect(harness.bridge.dedupe.contains("old_0") && !harness.bridge.dedupe.contains("evt_new"))
        harness.ackAll(refused)
        let safe = harness.press("movie", kind: "button", value: nil, id: "evt_movie")
        #expect(safe.mqttPublishes.map(\.topic) == ["home/scene/set"], "safe presses still run")
    }

    @Test func idsAreToldApartByTheirBytesNotByUnicodeEquivalence() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let composed = "evt_caf\u{E9}", decomposed = "evt_cafe\u{301}"
        #expect(composed == decomposed, "Swift's String == merges them")
        _ = harness.press("feed_cat", kind: "button", value: nil, id: composed)
        let other = harness.press("feed_cat", kind: "button", value: nil, id: decomposed)
        #expect(other.drops.isEmpty, "another id to the service: another press")
        #expect(other.recorded.map(\.id) == [decomposed], "one record of the new id, not the whole set")
        #expect(harness.bridge.dedupe.unsafeCount == 2)
        let replay = harness.press("feed_cat", kind: "button", value: nil, id: decomposed)
        #expect(replay.drops == [.duplicate])
    }

    @Test func forgettingAndEvictingStayCorrectOverManyIds() {
        var memory = DedupeMemory(marginMs: DedupeMemory.minMarginMs, capacity: 1_000, remembered: [])
        for index in 0..<20_000 {
            _ = memory.remember("s\(index)", expiresAtMs: Int64(index), isUnsafe: false)
            if index % 10 == 0 { _ = memory.remember("u\(index)", expiresAtMs: Int64(index), isUnsafe: true) }
        }
        #expect(memory.safeCount == 1_000)
        #expect(memory.contains("s19999") && !memory.contains("s18999"), "the soonest-expiring safe ids went")
        #expect(memory.unsafeCount == 2_000 && memory.contains("u0"))
        let changed = memory.forgetExpired(serverClockMs: 10_000 + DedupeMemory.minMarginMs, uncertaintyMs: 0)
        #expect(changed.count == 1_000 && changed.first == "u0")
        #expect(!memory.contains("u9990") && memory.contains("u10000"))
        #expect(memory.unsafeEvents.first?.id == "u10000")
        #expect(memory.unsafeEvents.count == 1_000)
    }
}

@Suite("dedupe_capacity and dedupe_margin_ms in check")
struct DedupeConfigTests {
    static func load(_ timing: String) -> ConfigLoadResult {
        ConfigLoader.load(text: "aivi: {token_env: A}\ntiming:\n\(timing)widgets: []\n", fileName: "bridge.yaml")
    }

    static func isAccepted(_ timing: String) -> Bool {
        !load(timing).errors.contains { $0.message.contains("dedupe") }
    }

    @Test func aCapacityBelowWhatTheServiceMayDeliverIsRefusedOnItsLineWithTheFix() {
        let result = Self.load("  dedupe_margin_ms: 60000\n  dedupe_capacity: 16\n")
        #expect(result.config == nil)
        let error = result.errors.first { $0.message.contains("'dedupe_capacity'") }
        #expect(error?.location == SourceLocation(line: 4, column: 20), "\(result.rendered())")
        #expect(error?.message.contains("set it to at least 86") == true, "\(result.rendered())")
        #expect(DedupeMemory.idsNeeded(marginMs: 60_000) == 86)
        #expect(Self.isAccepted("  dedupe_capacity: 86\n"))
        #expect(!Self.isAccepted("  dedupe_margin_ms: 600000\n  dedupe_capacity: 86\n"))
    }

    @Test(arguments: [Int64(0), 9_999, 3_600_001])
    func aMarginOutsideItsFloorAndCeilingIsRefused(margin: Int64) {
        let result = Self.load("  dedupe_margin_ms: \(margin)\n")
        #expect(result.config == nil)
        let error = result.errors.first { $0.message.contains("'dedupe_margin_ms'") }
        #expect(error?.location == SourceLocation(line: 3, column: 21), "\(result.rendered())")
        #expect(error?.message.contains("at least 10 s") == true)
    }

    @Test func theDefaultCapacityHoldsTheLargestMargin() {
        #expect(DedupeMemory.idsNeeded(marginMs: DedupeMemory.maxMarginMs) <= TimingSettings().dedupeCapacity)
        #expect(DedupeMemory.idsNeeded(marginMs: DedupeMemory.maxMarginMs) <= DedupeMemory.maxUnsafeIds)
        #expect(Self.isAccepted("  dedupe_margin_ms: 3600000\n"))
        #expect(Self.isAccepted("  dedupe_margin_ms: 10000\n"))
    }
}

extension DedupeMemory {
    /// The unsafe ids remembered, soonest expiry first (what the test reads back).
    var unsafeEvents: [RememberedEvent] {
        entries.compactMap { key, remembered in
            remembered.isUnsafe ? RememberedEvent(id: key.text, expiresAtMs: remembered.expiresAtMs) : nil
        }
        .sorted { ($0.expiresAtMs, UTF8Key($0.id)) < ($1.expiresAtMs, UTF8Key($1.id)) }
    }
}
