@testable import bridge_bench
import BridgeCore
import Testing

/// Issue 42: the bench's and the soak's configs start with one head (`BenchConfig.head`):
/// the simulator's API with the token in an environment variable, the private broker on
/// loopback, the state directory, the timings. Both pass the config loader with the values
/// each asked for, and the soak's broken reloads are still refused.
@Suite struct BenchConfigTests {
    static let api = "http://127.0.0.1:18080"

    @Test func theBenchsConfigLoadsWithItsHead() throws {
        var sizes = BenchSizes.quick
        sizes.minPublishIntervalMs = 0
        let text = BenchConfig.yaml(sizes: sizes, brokerPort: 18_830, apiBaseURL: Self.api, stateDirectory: "/tmp/bench-state",
                                    hasUnsafeButtons: true, statusPort: 18_787, hasPulsedDoor: true)
        let loaded = ConfigLoader.load(text: text, fileName: "bench.yaml")
        let config = try #require(loaded.config, "\(loaded.rendered())")
        #expect(loaded.errors.isEmpty && loaded.warnings.isEmpty, "\(loaded.rendered())")
        #expect(config.aivi.apiBaseURL == Self.api && config.aivi.tokenEnv == BenchConfig.tokenVariable)
        #expect(config.mqtt.host == "127.0.0.1" && config.mqtt.port == 18_830 && config.mqtt.clientId == "bridge-bench-bridge")
        #expect(config.stateDirectory == "/tmp/bench-state" && config.timing.minPublishIntervalMs == 0)
        #expect(config.status?.listen == "127.0.0.1:18787" && config.widgets.count == sizes.widgetCount)
        #expect(config.allActions.count == sizes.toggleCount + sizes.widgetCount + 1)
    }

    @Test func theSoaksConfigLoadsWithTheSameHead() throws {
        for variant in 0..<3 {
            let text = SoakConfig.yaml(brokerPort: 18_831, apiBaseURL: Self.api, stateDirectory: "/tmp/soak-state", variant: variant,
                                       isBroken: false)
            let loaded = ConfigLoader.load(text: text, fileName: "soak.yaml")
            let config = try #require(loaded.config, "\(loaded.rendered())")
            #expect(loaded.errors.isEmpty, "\(loaded.rendered())")
            #expect(config.aivi.apiBaseURL == Self.api && config.aivi.tokenEnv == SoakConfig.tokenVariable)
            #expect(config.mqtt.port == 18_831 && config.mqtt.clientId == "bridge-soak-bridge" && config.mqtt.statusTopic == "soak/bridge/status")
            #expect(config.stateDirectory == "/tmp/soak-state" && config.timing.confirmTimeoutMs == 3_000 && config.timing.stopGraceMs == 2_000)
            #expect(config.timing.settleWindowMs == 500 && config.timing.publishRetryInitialMs == 200)
            #expect(config.timing.publishRetryCapMs == 4_000 && config.timing.streamDeadAfterMs == 6_000)
            #expect(config.allActions.count == SoakConfig.actions.count)
        }
        for variant in 0..<2 {
            let broken = SoakConfig.yaml(brokerPort: 18_831, apiBaseURL: Self.api, stateDirectory: "/tmp/soak-state", variant: variant,
                                         isBroken: true)
            #expect(ConfigLoader.load(text: broken, fileName: "soak.yaml").config == nil, "variant \(variant) was accepted")
        }
        let bench = BenchConfig.yaml(sizes: .quick, brokerPort: 1, apiBaseURL: Self.api, stateDirectory: "/s")
        let soak = SoakConfig.yaml(brokerPort: 1, apiBaseURL: Self.api, stateDirectory: "/s", variant: 0, isBroken: false)
        let keys = { (text: String) in text.split(separator: "\n").prefix(7).map { $0.split(separator: ":").first.map(String.init) ?? "" } }
        #expect(keys(bench) == keys(soak) && keys(bench) == ["aivi", "  api", "  token_env", "mqtt", "  host", "  port", "  client_id"])
    }
}
