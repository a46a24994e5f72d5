import Testing
@testable import BridgeCore

/// Issue 38 item 4: what an event may claim is bounded. The guide says a press
/// expires 5 s after it happened; one claiming to expire more than
/// `AiviServiceLimits.maxClaimedLifetimeMs` (60 s) after the server's clock is
/// refused (answered with the true state, its id not kept), and no id is kept
/// longer than that bound (ids loaded from the file included), so junk
/// expiring in year 9999 is forgotten in about a minute, not never.
@Suite("Never twice: an event's claimed expiry is bounded")
struct ClaimedExpiryTests {
    static let year9999Ms: Int64 = 253_402_300_799_000

    /// A press of `action` created 100 ms ago that claims to expire at `expiresAtMs`.
    static func press(_ harness: inout BridgeHarness, _ action: String, id: String, expiresAtMs: Int64) -> [BridgeEffect] {
        let created = harness.clockMs + harness.serverOffsetMs - 100
        let json = "{\"id\":\"\(id)\",\"type\":\"widget.action.v1\",\"created_at\":\"\(BridgeHarness.iso(created))\","
            + "\"expires_at\":\"\(BridgeHarness.iso(expiresAtMs))\",\"data\":{\"widget\":\"living-room\",\"action\":\"\(action)\","
            + "\"kind\":\"button\"}}"
        return harness.send(.streamEvent(StreamEvent(id: id, type: "widget.action.v1", data: json)))
    }

    struct Claim: Sendable, CustomStringConvertible {
        var expiresInMs: Int64
        var carriedOut: Bool
        var description: String { "expires in \(expiresInMs) ms" }
    }

    @Test(arguments: [
        Claim(expiresInMs: 4_900, carriedOut: true),
        Claim(expiresInMs: 60_000, carriedOut: true),
        Claim(expiresInMs: 60_001, carriedOut: false),
        Claim(expiresInMs: 3_600_000, carriedOut: false),
        Claim(expiresInMs: year9999Ms - 1_800_000_000_000, carriedOut: false),
    ])
    func aPressClaimingALongLifeIsRefused(_ claim: Claim) {
        for action in ["feed_cat", "movie"] {
            var harness = BridgeHarness()
            harness.connectAndSettle()
            let effects = Self.press(&harness, action, id: "evt_1", expiresAtMs: harness.clockMs + claim.expiresInMs)
            #expect(effects.mqttPublishes.isEmpty == !claim.carriedOut, "\(action)")
            #expect(effects.drops == (claim.carriedOut ? [] : [.implausibleExpiry]), "\(action)")
            #expect(harness.bridge.dedupe.contains("evt_1") == claim.carriedOut, "\(action)")
            if !claim.carriedOut { #expect(effects.patches.count == 1, "answered with the true state") }
        }
    }

    /// 10,000 junk presses expiring in year 9999 do not lock unsafe actions out.
    @Test func junkPressesNeverFillTheUnsafeMemory() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        for index in 0..<DedupeMemory.maxUnsafeIds {
            harness.ackAll(Self.press(&harness, "feed_cat", id: "junk_\(index)", expiresAtMs: Self.year9999Ms))
        }
        #expect(harness.bridge.dedupe.unsafeCount == 0)
        harness.endPublishIntervals()
        let real = harness.press("feed_cat", kind: "button", value: nil, id: "evt_real")
        #expect(real.mqttPublishes.count == 1)
    }

    /// An id file written before the bound (year-9999 ids) is forgotten within
    /// the bound plus the margin once the server's clock is known.
    @Test func junkIdsFromTheFileAreForgottenInAboutAMinute() {
        let junk = (0..<DedupeMemory.maxUnsafeIds).map { RememberedEvent(id: "junk_\($0)", expiresAtMs: Self.year9999Ms) }
        var harness = BridgeHarness(remembered: junk)
        harness.connectAndSettle()
        _ = harness.press("movie", kind: "button", value: nil, id: "evt_a")
        #expect(harness.bridge.dedupe.unsafeCount == DedupeMemory.maxUnsafeIds, "not forgotten at once")
        harness.advance(ms: AiviServiceLimits.maxClaimedLifetimeMs + harness.bridge.dedupe.marginMs + HTTPDate.uncertaintyMs + 1)
        let later = harness.press("feed_cat", kind: "button", value: nil, id: "evt_b")
        #expect(later.mqttPublishes.count == 1, "\(later.drops)")
        #expect(harness.bridge.dedupe.unsafeCount == 1)
        #expect(later.contains { if case .forgetUnsafeEventIds(let ids) = $0 { ids.count == DedupeMemory.maxUnsafeIds } else { false } })
    }
}
