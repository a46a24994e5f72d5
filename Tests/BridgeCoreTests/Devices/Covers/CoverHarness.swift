@testable import BridgeCore

/// A bridge with one action (written as YAML lines) on widget `home`, connected
/// and settled with `states`, every PATCH answered.
extension BridgeHarness {
    /// `started`: the process's start comes first, as the daemon feeds it.
    init(action: String, states: [(String, String)], started: Bool = false) throws {
        self.init(config: try Self.coverConfig(action))
        if started { ackAll(send(.started)) }
        connectAndSettle(states: states)
    }

    static func coverConfig(_ action: String) throws -> BridgeConfig {
        let result = ConfigLoader.load(text: ConfigFixture.withAction("id: dev\nlabel: Device\n" + action), fileName: "bridge.yaml")
        guard let config = result.config else { throw CoverTestError.config(result.rendered()) }
        return config
    }

    var device: ActionState { bridge.states[ActionKey(slug: "home", actionId: "dev")] ?? ActionState() }

    mutating func press(_ value: Bool, id: String) -> [BridgeEffect] {
        press("dev", widget: "home", value: value, id: id)
    }

    /// The `on` the last PATCH showed for the action.
    static func shownOn(_ effects: [BridgeEffect]) -> Bool? {
        guard let body = effects.patches.last?.body else { return nil }
        if body.contains(#""on":true"#) { return true }
        if body.contains(#""on":false"#) { return false }
        return nil
    }
}

enum CoverTestError: Error { case config(String) }

extension Array where Element == BridgeEffect {
    var outgoing: [OutgoingMQTTMessage] {
        performed.compactMap { if case .publishMQTT(let message) = $0 { message } else { nil } }
    }

    var logTexts: [(BridgeLogLevel, String)] {
        performed.compactMap { if case .log(let level, let message) = $0 { (level, message.text) } else { nil } }
    }

    var confirmTimers: [Int64] {
        compactMap { if case .startTimer(.confirm, let afterMs) = $0 { afterMs } else { nil } }
    }
}
