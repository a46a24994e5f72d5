import Foundation
import TestSupport

extension EndToEndHarness {
    /// A harness whose widget holds `actions` (YAML, each `- id:` at column 2) instead of
    /// the standard ones, its devices in the retained `states`; started unless `start` is false.
    static func with(actions: String, states: [(String, String)], start: Bool = true) throws -> EndToEndHarness {
        let world = try EndToEndHarness()
        let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
        try WidgetActionsConfig.replacingWidgets(of: config, slug: widget, actions: actions)
            .write(toFile: world.configPath, atomically: true, encoding: .utf8)
        try WidgetActionsConfig.publishRetained(states, port: world.broker.port, directory: world.directory)
        if start { try world.startBridge() }
        return world
    }
}
