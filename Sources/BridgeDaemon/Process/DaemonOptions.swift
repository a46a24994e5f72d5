import BridgeCore

/// How to start a `Daemon`: the config file, the environment it reads secrets
/// from, and an optional adjustment applied to every config loaded (the demo
/// and the tests point it at their own broker and simulator this way).
public struct DaemonOptions: Sendable {
    public var configPath: String
    public var environment: [String: String]
    public var adjustConfig: @Sendable (inout BridgeConfig) -> Void

    public init(
        configPath: String,
        environment: [String: String],
        adjustConfig: @escaping @Sendable (inout BridgeConfig) -> Void = { _ in }
    ) {
        self.configPath = configPath
        self.environment = environment
        self.adjustConfig = adjustConfig
    }

    /// Loads the config file and applies the adjustment.
    func loadConfig() -> ConfigFile.Loaded {
        var loaded = ConfigFile.load(path: configPath)
        if var config = loaded.config {
            adjustConfig(&config)
            loaded.config = config
        }
        return loaded
    }
}
