import BridgeCore
import CommandLineParsing

/// The options of `discover`, declared and read (its broker options mirror the config's `mqtt:` section).
public struct DiscoverArguments: Sendable, Equatable {
    /// `--config`: a config whose `mqtt:` section (and token file, API) to start from.
    public var configPath: String?
    public var mqttHost: String?
    /// The broker's port (nil: the config's, else 1883).
    public var port: Int?
    public var username: String?
    public var passwordFile: String?
    /// `--tls`: TLS with the system CAs.
    public var tls = false
    public var tlsCAFile: String?
    /// How long to listen (nil: `DiscoverCommand.defaultListenSeconds`).
    public var seconds: Int?
    public var widget = "home"
    public var output: String?
    public var homeAssistantPrefix = "homeassistant"
    public var tokenFile = "/etc/switchboard-bridge/aivi-token"
    public var apiURL: String?
    public var stateDirectory: String?

    public init() {}

    static let mqttHostOption = CommandOption("--mqtt-host", .text("HOST"), help: "the broker (default 127.0.0.1)")
    static let portOption = CommandOption("--port", .number("PORT", 1...65_535), help: "the broker's port (default 1883)")
    static let usernameOption = CommandOption("--username", .text("USER"), help: "the broker's user name, with --password-file")
    static let passwordFileOption = CommandOption("--password-file", .text("FILE"), help: "a file whose first line is the broker's password")
    static let tlsOption = CommandOption("--tls", help: "TLS to the broker, verified against the system's CAs")
    static let tlsCAFileOption = CommandOption("--tls-ca-file", .text("FILE"), help: "TLS to the broker, verified against the CAs of FILE")
    static let configOption = CommandOption("--config", short: "-c", .text("PATH"),
                                      help: "a config whose mqtt: section, token file and API to start from (the options above win)")
    static let secondsOption = CommandOption("--seconds", .number("N", DiscoverCommand.listenSecondsRange),
                                       help: "how long to listen (default \(DiscoverCommand.defaultListenSeconds); then up to \(DiscoveryListener.deadlineDrain.maxMs / 1_000) s more while the broker still sends)")
    static let widgetOption = CommandOption("--widget", .text("SLUG"), help: "the widget's slug (default \(DiscoverArguments().widget))")
    static let outputOption = CommandOption("--output", short: "-o", .text("FILE"),
                                            help: "write the config there, which must not exist (default: stdout)")
    static let haPrefixOption = CommandOption("--ha-prefix", .text("PREFIX"),
                                        help: "the Home Assistant discovery prefix (default \(DiscoverArguments().homeAssistantPrefix))")
    static let tokenFileOption = CommandOption("--token-file", .text("FILE"),
                                               help: "the token file the config names (default \(DiscoverArguments().tokenFile))")
    static let apiOption = CommandOption("--api", .text("URL"), help: "the API address the config names (default: the service's)")
    static let stateDirOption = CommandOption("--state-dir", .text("DIR"), help: "the state directory the config names (default: the bridge's)")

    /// In the order `discover --help` lists them.
    static let options = [mqttHostOption, portOption, usernameOption, passwordFileOption, tlsOption, tlsCAFileOption, configOption,
                          secondsOption, widgetOption, outputOption, haPrefixOption, tokenFileOption, apiOption, stateDirOption]

    /// Reads the options the parser has checked; a broker host the one address parser refuses is refused here, with the fix.
    init(_ arguments: CommandLineArguments) throws(CommandLineError) {
        if let host = arguments.text(Self.mqttHostOption) {
            if case .failure(let refusal) = HostAddress.parse(host) {
                throw .refusedValue(command: DiscoverCommand.name, option: Self.mqttHostOption.name, value: host, because: refusal.message)
            }
            mqttHost = host
        }
        configPath = arguments.text(Self.configOption)
        port = arguments.number(Self.portOption)
        username = arguments.text(Self.usernameOption)
        passwordFile = arguments.text(Self.passwordFileOption)
        tls = arguments.flag(Self.tlsOption)
        tlsCAFile = arguments.text(Self.tlsCAFileOption)
        seconds = arguments.number(Self.secondsOption)
        widget = arguments.text(Self.widgetOption) ?? widget
        output = arguments.text(Self.outputOption)
        homeAssistantPrefix = arguments.text(Self.haPrefixOption) ?? homeAssistantPrefix
        tokenFile = arguments.text(Self.tokenFileOption) ?? tokenFile
        apiURL = arguments.text(Self.apiOption)
        stateDirectory = arguments.text(Self.stateDirOption)
    }
}
