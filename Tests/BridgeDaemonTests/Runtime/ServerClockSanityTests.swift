@testable import BridgeCore
@testable import BridgeDaemon
import Foundation
import ShellSupport
import Testing

/// Issue 19 item 10: a `Date` header more than a day from the board's clock
/// (year 1: no press would expire; 9999: every one would, and every id be
/// forgotten) is ignored, with one warning; a believable one is taken.
@Suite("The server clock's sanity bound")
struct ServerClockSanityTests {
    static func httpDate(epochMs: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(epochMs) / 1000))
    }

    @Test func aDateMoreThanADayOffIsIgnoredAndSaidOnce() throws {
        let warnings = ConditionLock<[String]>([])
        let offsets = ConditionLock<[Int64]>([])
        let ports = RuntimePorts(
            publishMQTT: { _ in }, setSubscriptions: { _ in }, sendPatch: { _, completion in completion(.status(200)) },
            unsafeEventRecorder: ClosureRecorder(), reloadConfig: { nil },
            log: { level, message in if level == .warning { warnings.withLock { $0.append(message.description) } } },
            afterBatch: { snapshot in offsets.withLock { $0.append(snapshot.serverClockOffsetMs) } })
        let runtime = BridgeRuntime(bridge: Bridge(config: BridgeRuntimeTests.config), ports: ports)
        let nowMs = WallClock.nowEpochMs()
        for header in ["Fri, 31 Dec 9999 23:59:59 GMT", "Mon, 01 Jan 0001 00:00:00 GMT",
                       Self.httpDate(epochMs: nowMs + 86_400_000 + 60_000)] {
            runtime.submit(.eventStreamConnected(dateHeader: header, receivedAtMonotonicMs: MonotonicClock.nowMs()))
        }
        let loop = try ShellThread { runtime.run() }
        #expect(offsets.wait(timeoutMs: 5_000, until: { !$0.isEmpty }))
        #expect(offsets.withLock { $0 }.allSatisfy { $0 == 0 }, "\(offsets.withLock { $0 })")
        let said = warnings.withLock { $0 }.filter { $0.contains("service's clock") }
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains("more than a day, so it is ignored") == true)
        // An hour ahead is believed.
        runtime.submit(.eventStreamConnected(dateHeader: Self.httpDate(epochMs: WallClock.nowEpochMs() + 3_600_000),
                                             receivedAtMonotonicMs: MonotonicClock.nowMs()))
        #expect(offsets.wait(timeoutMs: 5_000, until: { ($0.last ?? 0) > 3_598_000 && ($0.last ?? 0) < 3_602_000 }),
                "\(offsets.withLock { $0.suffix(3) })")
        runtime.submit(.stopRequested)
        loop.join()
    }

    @Test(arguments: [(Int64(86_400_000), true), (-86_400_000, true), (86_400_001, false), (Int64.min, false), (Int64.max, false)])
    func plausibleOffsets(offsetMs: Int64, believed: Bool) {
        #expect(HTTPDate.isPlausible(offsetMs: offsetMs) == believed)
    }

    @Test func theUncertaintyGrowsWithTheReadingsAge() {
        #expect(HTTPDate.uncertaintyMs(ageMs: 0) == 1_000)
        #expect(HTTPDate.uncertaintyMs(ageMs: 86_400_000) == 1_000 + 8_640)
        #expect(HTTPDate.uncertaintyMs(ageMs: Int64.max) > 0)
    }
}
