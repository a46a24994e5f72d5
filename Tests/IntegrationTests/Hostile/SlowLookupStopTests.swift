import Foundation
import Testing
import TestSupport

/// Issue 38 item 6, against the real binary: with every name lookup slowed to 25 s
/// (`SWITCHBOARD_FAULT_LOOKUP_DELAY_MS`, as a slow DNS server), the loop goes on
/// (MQTT connects while the API host is looked up, and the status listener, served
/// on the loop, answers every probe at once past the PATCHes' 5 s connect timeout)
/// and SIGTERM ends the daemon within its stop grace (`stop_grace_ms: 2000`, plus
/// 1 s), whichever host is being looked up (before: 19 s for the API host, 25 s for
/// the broker's, past the unit's 15 s kill). Before `NameResolver`, libcurl's own
/// threaded resolver was joined on the loop when the PATCH's connect timed out: the
/// probes got no answer for ~20 s and the stop took 20 s (the API test, run on that
/// code with getaddrinfo slowed by an LD_PRELOAD shim). Presses while the API host's
/// lookup is slow (they need the event stream, connected before) are timed by
/// `bridge-bench --only stalls`.
@Suite("Slow name lookups: no stall, prompt stop (real binary)", .serialized)
struct SlowLookupStopTests {
    static let lookupDelay = ["SWITCHBOARD_FAULT_LOOKUP_DELAY_MS": "25000"]

    func stopSeconds(_ world: EndToEndHarness) throws -> Double {
        let bridge = try #require(world.bridge)
        let terminatedAt = Date()
        bridge.send(SIGTERM)
        let status = bridge.waitForExit(timeoutSeconds: 30)
        #expect(status == 0, "\(world.log.suffix(2_000))")
        return Date().timeIntervalSince(terminatedAt)
    }

    /// How long the status listener is probed, from the first PATCH's start, while the
    /// API host's lookup waits: past the PATCHes' 5 s connect timeout, when libcurl's own
    /// resolver was joined on the loop (the stall then lasted ~20 s, so a probe started
    /// at any time after it began went unanswered), by a second for a late loop.
    static let probeSeconds = 6.0

    @Test func theAPIHostsLookupLeavesMQTTToTheLoopAndDoesNotDelayTheStop() throws {
        let world = try EndToEndHarness()
        let statusPort = try LoopbackPort.free()
        let apiByName = world.simulator.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
            .replacingOccurrences(of: "api: \(world.simulator.baseURL)", with: "api: \(apiByName)")
            .replacingOccurrences(of: "state_dir:", with: "status: { listen: 127.0.0.1:\(statusPort) }\nstate_dir:")
        #expect(config.contains("api: http://localhost:"))
        try config.write(toFile: world.configPath, atomically: true, encoding: .utf8)
        try world.startBridge(waitForFirstPublish: false, environment: Self.lookupDelay)
        // MQTT connects (the bridge says it is online) while the API host's lookup waits.
        #expect(waitUntil(timeoutSeconds: 10, { world.devices.commands(on: "test/bridge/status").contains("online") }),
                "\(world.log.suffix(2_000))")
        // The first PATCH (and its lookup) starts when the states settle; the loop answers
        // the status listener all along from there (one probe after another).
        #expect(world.waitForLog("states settled; publishing", timeoutSeconds: 10), "\(world.log.suffix(2_000))")
        let probingSince = Date()
        var slowestProbeSeconds = 0.0
        var probes = 0
        while Date().timeIntervalSince(probingSince) < Self.probeSeconds {
            let sentAt = Date()
            let answered = (try? HTTPGet.fetch("http://127.0.0.1:\(statusPort)/healthz")) != nil
            slowestProbeSeconds = max(slowestProbeSeconds, Date().timeIntervalSince(sentAt))
            probes += 1
            guard answered else { break }
        }
        print("slow API lookup: \(probes) status probes in \(Self.probeSeconds) s, the slowest \(slowestProbeSeconds) s")
        #expect(slowestProbeSeconds < 2, "the loop answered a status probe after \(slowestProbeSeconds) s while the API host was looked up")
        #expect(!world.log.contains("event stream connected"), "the lookup was not slowed")
        let seconds = try stopSeconds(world)
        print("slow API lookup: exit \(seconds) s after SIGTERM")
        #expect(seconds < 3, "exit \(seconds) s after SIGTERM while the API host was looked up (stop_grace_ms 2000)")
    }

    @Test func theBrokersLookupDoesNotDelayTheStop() throws {
        let world = try EndToEndHarness()
        let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
            .replacingOccurrences(of: "  host: 127.0.0.1\n", with: "  host: localhost\n")
        #expect(config.contains("host: localhost"))
        try config.write(toFile: world.configPath, atomically: true, encoding: .utf8)
        try world.startBridge(waitForFirstPublish: false, environment: Self.lookupDelay)
        #expect(world.waitForLog("starting", timeoutSeconds: 10), "\(world.log.suffix(2_000))")
        let seconds = try stopSeconds(world)
        print("slow broker lookup: exit \(seconds) s after SIGTERM")
        #expect(seconds < 3, "exit \(seconds) s after SIGTERM while the broker's name was looked up (stop_grace_ms 2000)")
        #expect(world.devices.commands(on: "test/bridge/status").isEmpty, "the lookup was not slowed")
    }
}
