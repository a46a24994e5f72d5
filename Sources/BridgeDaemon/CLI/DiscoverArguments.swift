import BridgeCore

/// The options of `discover` (its broker options mirror the config's `mqtt:` section).
public struct DiscoverArguments: Sendable, Equatable {
    public var mqttHost: String?
    public var username: String?
    public var passwordFile: String?
    /// `--tls`: TLS with the system CAs.
    public var tls = false
    public var tlsCAFile: String?
    public var widget = "home"
    public var output: String?
    public var homeAssistantPrefix = "homeassistant"
    public var tokenFile = "/etc/switchboard-bridge/aivi-token"
    public var apiURL: String?
    public var stateDirectory: String?

    public init() {}

    /// Takes the option `name` if it is one of `discover`'s; returns false otherwise.
    mutating func accept(_ name: String, value: () throws(CommandLineError) -> String) throws(CommandLineError) -> Bool {
        switch name {
        case "--mqtt-host":
            let host = try value()
            if case .failure(let refusal) = HostAddress.parse(host) { throw .refusedValue(name, host, because: refusal.message) }
            mqttHost = host
        case "--username": username = try value()
        case "--password-file": passwordFile = try value()
        case "--tls": tls = true
        case "--tls-ca-file": tlsCAFile = try value()
        case "--widget": widget = try value()
        case "--output", "-o": output = try value()
        case "--ha-prefix": homeAssistantPrefix = try value()
        case "--token-file": tokenFile = try value()
        case "--api": apiURL = try value()
        case "--state-dir": stateDirectory = try value()
        default: return false
        }
        return true
    }
}
