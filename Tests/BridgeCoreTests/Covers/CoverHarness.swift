@testable import BridgeCore

/// A bridge with one action (written as YAML lines) on widget `home`, connected
/// and settled with `states`, every PATCH answered.
extension BridgeHarness {
    init(action: String, states: [(String, String)]) throws {
        let result = ConfigLoader.load(text: ConfigFixture.withAction("id: dev\nlabel: Device\n" + action), fileName: "bridge.yaml")
        guard let config = result.config else { throw CoverTestError.config(result.rendered()) }
        self.init(config: config)
        connectAndSettle(states: states)
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
        compactMap { if case .publishMQTT(let message) = $0 { message } else { nil } }
    }

    var logTexts: [(BridgeLogLevel, String)] {
        compactMap { if case .log(let level, let message) = $0 { (level, message.text) } else { nil } }
    }

    var confirmTimers: [Int64] {
        compactMap { if case .startTimer(.confirm, let afterMs) = $0 { afterMs } else { nil } }
    }
}
