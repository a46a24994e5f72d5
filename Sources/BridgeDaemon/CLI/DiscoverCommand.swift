import BridgeCore
import CommandLineParsing
import Glibc
import MQTTShell
import ShellSupport

/// `switchboard-bridge discover`: listens to what the broker's devices announce and
/// writes a config that passes `check`. The translation is `BridgeCore.Discovery`'s,
/// the listening `DiscoveryListener`'s; this file only wires them to the command line.
public struct DiscoverCommand: BridgeCommand {
    public static let name = "discover"
    public static let abstract = "write a config from what the devices on the broker announce"
    public static var options: [CommandOption] { DiscoverArguments.options }
    /// How long discover listens without `--seconds`, and the values `--seconds` takes.
    public static let defaultListenSeconds = 5
    public static let listenSecondsRange = 1...600

    public var arguments: DiscoverArguments

    public init(_ arguments: CommandLineArguments) throws(CommandLineError) {
        self.arguments = try DiscoverArguments(arguments)
    }

    public func run(environment: [String: String]) -> Int32 {
        let options: DiscoveryOptions
        switch Self.discoveryOptions(arguments) {
        case .success(let made): options = made
        case .failure(let failure): return Self.fail(failure.description, status: 2)
        }
        if let output = arguments.output, access(output, F_OK) == 0 {
            return Self.fail("discover: \(output) exists; refusing to overwrite it (choose another --output or remove it)", status: 2)
        }
        let password: String?
        do { password = try Self.readPassword(options.mqtt.passwordFile) } catch {
            return Self.fail("discover: cannot read the MQTT password file: \(error)", status: 2)
        }
        if let path = options.mqtt.tls?.caFile, let problem = FileAccessProbe.readProblem(path, limit: FileAccessProbe.maxCAFileBytes) {
            return Self.fail("discover: cannot read the CA file \(path): \(problem)", status: 2)
        }
        let session: DiscoverySession
        let dropped: Int
        do {
            (session, dropped) = try DiscoveryListener.listen(
                settings: Self.mqttSettings(options.mqtt, password: password),
                login: BrokerLoginRefusal(username: options.mqtt.username, passwordFile: options.mqtt.passwordFile, settings: .discoverOptions),
                session: DiscoverySession(options: options),
                seconds: options.listenSeconds)
        } catch {
            return Self.fail("discover: \(error)", status: 1)
        }
        if dropped > 0 {
            StandardErrorWriter.writeLine("discover: \(dropped) message(s) were too large or came too fast and were left out")
        }
        return Self.write(session.result(), options: options, output: arguments.output)
    }

    private static func write(_ result: DiscoveryResult, options: DiscoveryOptions, output: String?) -> Int32 {
        guard !result.heard.isEmpty || !result.isEmpty else {
            return fail(options.nothingHeardMessage(host: options.mqtt.host, port: options.mqtt.port), status: 1)
        }
        guard !result.toggles.isEmpty else {
            let skipped = result.skipped.listed(prefix: "  ").joined(separator: "\n")
            return fail("discover: devices were announced, but nothing that can be switched on and off:\n\(skipped)", status: 1)
        }
        let text = DiscoveredConfigWriter.text(result, options: options)
        guard let output else {
            print(text, terminator: "")
            return 0
        }
        do { try FileBytes.createNew(path: output, bytes: Array(text.utf8)) } catch {
            return fail("discover: cannot write \(output): \(error)", status: 1)
        }
        let widgets = DiscoveredConfigWriter.widgetCount(result, options: options)
        let shared = widgets > 1 ? " in \(widgets) widgets (one widget's content would be over the service's limit; create each in the Aivi app)" : ""
        StandardErrorWriter.writeLine("discover: \(result.toggles.count) action(s) written to \(output)\(shared); check it with: switchboard-bridge check --config \(output)")
        return 0
    }

    /// The options from `--config` (its `mqtt:` section) with the command line's over them.
    public static func discoveryOptions(_ given: DiscoverArguments) -> Result<DiscoveryOptions, DiscoverFailure> {
        var options = DiscoveryOptions()
        if let path = given.configPath {
            let loaded = ConfigFile.load(path: path)
            guard let config = loaded.config else { return .failure(DiscoverFailure(loaded.report)) }
            options.mqtt = config.mqtt
            options.tokenFile = config.aivi.tokenFile ?? options.tokenFile
            if config.aivi.apiBaseURL != AiviSettings().apiBaseURL { options.apiURL = config.aivi.apiBaseURL }
        }
        if let host = given.mqttHost { options.mqtt.host = host }
        if let port = given.port { options.mqtt.port = port }
        if let username = given.username { options.mqtt.username = username }
        if let file = given.passwordFile { options.mqtt.passwordFile = file }
        if given.tls || given.tlsCAFile != nil {
            options.mqtt.tls = MQTTTLSSettings(caFile: given.tlsCAFile ?? options.mqtt.tls?.caFile, insecure: options.mqtt.tls?.insecure ?? false)
        }
        if let problem = DiscoveryOptions.slugProblem(given.widget) { return .failure(DiscoverFailure("discover: --widget \(problem)")) }
        options.widgetSlug = given.widget
        options.homeAssistantPrefix = given.homeAssistantPrefix
        options.tokenFile = given.tokenFile == DiscoverArguments().tokenFile ? options.tokenFile : given.tokenFile
        options.apiURL = given.apiURL ?? options.apiURL
        options.stateDirectory = given.stateDirectory
        options.outputPath = given.output
        options.listenSeconds = given.seconds ?? defaultListenSeconds
        let problems = DiscoveredSettingsCheck.problems(options)
        guard problems.isEmpty else { return .failure(DiscoverFailure(problems.joined(separator: "\n"))) }
        return .success(options)
    }

    static func mqttSettings(_ mqtt: BridgeCore.MQTTSettings, password: String?) -> MQTTShell.MQTTSettings {
        MQTTShell.MQTTSettings(
            host: mqtt.host, port: mqtt.port, clientId: "switchboard-bridge-discover-\(getpid())",
            username: mqtt.username, password: password,
            tls: mqtt.tls.map { MQTTShell.MQTTSettings.TLS(caFile: $0.caFile, insecure: $0.insecure) },
            protocolVersion: mqtt.protocolVersion == .v311 ? .v311 : .v5, fallsBackToV311: mqtt.protocolVersion == nil,
            keepAliveSeconds: mqtt.keepaliveSeconds,
            maxPayloadBytes: DiscoverySession.maxPayloadBytes
        )
    }

    private static func readPassword(_ path: String?) throws(FileError) -> String? {
        guard let path else { return nil }
        let bytes = try FileBytes.read(path: path, limit: 4_096)
        return String(String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first ?? "")
    }

    private static func fail(_ message: String, status: Int32) -> Int32 {
        StandardErrorWriter.writeLine(message)
        return status
    }
}

/// Why `discover` cannot start.
public struct DiscoverFailure: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
