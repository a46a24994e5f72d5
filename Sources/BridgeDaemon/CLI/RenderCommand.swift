import BridgeCore
import CommandLineParsing
import ShellSupport

/// `switchboard-bridge render`: the content each widget would publish, with
/// toggle states given on the command line (unknown toggles render off).
public struct RenderCommand: BridgeCommand {
    public static let name = "render"
    public static let abstract = "print the content each widget would publish, connecting nowhere"
    static let stateOption = CommandOption("--state", .repeated("ID=on|off"),
        help: "a toggle's state (ID is an action id or slug/id); toggles not given render as never heard from")
    public static let options = [CommandOption.config, stateOption]

    public var configPath: String
    /// `ID=on|off`, as given.
    public var states: [String]

    public init(_ arguments: CommandLineArguments) {
        configPath = arguments.text(CommandOption.config) ?? UsageText.defaultConfigPath
        states = arguments.texts(Self.stateOption)
    }

    public func run(environment: [String: String]) -> Int32 {
        let result = Self.run(configPath: configPath, stateArguments: states)
        if result.status == 0 { print(result.output) } else { StandardErrorWriter.writeLine(result.output) }
        return result.status
    }

    public static func run(configPath: String, stateArguments: [String]) -> (status: Int32, output: String) {
        let loaded = ConfigFile.load(path: configPath)
        guard let config = loaded.config else { return (1, loaded.report) }
        var states: [ActionKey: ActionState] = [:]
        for argument in stateArguments {
            switch parseState(argument, config) {
            case .success(let (keys, isOn)):
                for key in keys { states[key, default: ActionState()].isOn = isOn }
            case .failure(let message):
                return (2, "error: --state \(argument): \(message)")
            }
        }
        let bodies = config.widgets.map { widget in
            "PATCH /widget/\(widget.slug)\n" + ContentRenderer.patchBody(widget: widget, states: states)
        }
        return (0, bodies.joined(separator: "\n"))
    }

    /// `ID=on|off`, where ID is an action id (in every widget having it) or `slug/id`.
    static func parseState(_ argument: String, _ config: BridgeConfig) -> Result<([ActionKey], Bool), RenderFailure> {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, ["on", "off"].contains(parts[1].lowercased()) else {
            return .failure(RenderFailure("expected ID=on or ID=off"))
        }
        let name = parts[0]
        let keys = config.allActions.map { ActionKey(slug: $0.slug, actionId: $0.action.id) }
            .filter { $0.actionId == name || "\($0.slug)/\($0.actionId)" == name }
        guard !keys.isEmpty else { return .failure(RenderFailure("no action '\(name)' in the config")) }
        return .success((keys, parts[1].lowercased() == "on"))
    }
}

/// Why a `--state` argument was refused.
public struct RenderFailure: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
