import BridgeCore
import CommandLineParsing
import Glibc
import ShellSupport

/// `switchboard-bridge check`: every problem that would make `run` fail or the
/// service refuse the content, each on the config line that causes it; then,
/// only when there is no error, a summary of widgets, actions and topics.
/// Problems go to stderr, the summary to stdout. With `--mqtt`, it then listens to the
/// broker as `watch` does.
public struct CheckCommand: BridgeCommand {
    public static let name = "check"
    public static let abstract = "validate a config: every problem on its line with the fix, then the widgets, actions and topics; "
        + "with --mqtt also which devices the broker lets it hear"
    static let mqttOption = CommandOption("--mqtt", help: "once the config passes, connect to its broker, send the state queries and "
        + "list which actions' devices speak (and near misses of those that do not)")
    static let secondsOption = CommandOption("--seconds", .number("N", WatchCommand.secondsRange),
        help: "with --mqtt: how long to listen (default \(WatchCommand.checkListenSeconds))")
    public static let options = [CommandOption.config, mqttOption, secondsOption]

    public var configPath: String
    /// `--mqtt`: listen to the broker once the config passes.
    public var listensToTheBroker: Bool
    public var listenSeconds: Int

    public init(_ arguments: CommandLineArguments) throws(CommandLineError) {
        configPath = arguments.text(CommandOption.config) ?? UsageText.defaultConfigPath
        listensToTheBroker = arguments.flag(Self.mqttOption)
        let seconds = arguments.number(Self.secondsOption)
        if seconds != nil, !listensToTheBroker {
            throw .onlyWith(command: Self.name, option: Self.secondsOption.name, other: Self.mqttOption.name)
        }
        listenSeconds = seconds ?? WatchCommand.checkListenSeconds
    }

    public func run(environment: [String: String]) -> Int32 {
        let report = Self.run(configPath: configPath, environment: environment)
        if !report.problems.isEmpty { StandardErrorWriter.writeLine(report.problems) }
        if !report.summary.isEmpty { print(report.summary) }
        guard listensToTheBroker, report.status == 0 else { return report.status }
        return WatchCommand.listen(configPath: configPath, seconds: listenSeconds)
    }

    /// What `check` found: the exit status, the problems (stderr), the summary (stdout).
    public struct Report: Sendable {
        public var status: Int32
        public var problems: String
        public var summary: String
        /// Both, problems first (as a person reads a terminal).
        public var output: String { [problems, summary].filter { !$0.isEmpty }.joined(separator: "\n") }
    }

    /// Runs the check as the current user, reading every file `run` would read.
    public static func run(configPath: String, environment: [String: String]) -> Report {
        let loaded = ConfigFile.load(path: configPath)
        guard let config = loaded.config else {
            return Report(status: 1, problems: loaded.report + "\n" + failedLine(configPath), summary: "")
        }
        var findings = CheckFindings(config: config, loaded: loaded)
        if !loaded.report.isEmpty { findings.lines.append(loaded.report) }
        findings.checkToken(environment)
        findings.checkFiles(environment)
        findings.checkConfigFile(configPath)
        findings.checkAsTheUnitsUser(configPath: configPath, environment: environment, isRoot: geteuid() == 0)
        findings.checkStateDirectory()
        guard !findings.hasError else {
            return Report(status: 1, problems: (findings.lines + [failedLine(configPath)]).joined(separator: "\n"), summary: "")
        }
        let summary = ["\(configPath): config ok: \(summaryHeadline(config))"] + summary(config) + findings.notes
        return Report(status: 0, problems: findings.lines.joined(separator: "\n"), summary: summary.joined(separator: "\n"))
    }

    static func failedLine(_ configPath: String) -> String {
        "\(configPath): check failed: fix the errors above; `run` would not start or the service would refuse the content"
    }

    static func summaryHeadline(_ config: BridgeConfig) -> String {
        let actions = config.widgets.reduce(0) { $0 + $1.actions.count }
        let topics = Set(config.allActions.flatMap { $0.action.subscribedTopics.map(UTF8Key.init) }).count
        return "\(config.widgets.count) widget(s), \(actions) action(s), \(topics) subscribed topic(s)"
    }

    static func summary(_ config: BridgeConfig) -> [String] {
        var lines: [String] = []
        for widget in config.widgets {
            lines.append("widget \(shown(widget.slug))")
            for action in widget.actions {
                let preset = action.preset.map { " (\($0))" } ?? ""
                lines.append("  \(shown(action.id)): \(action.kind.rawValue)\(preset) '\(shown(action.label))'")
                lines += (deviceLines(action) + topicLines(action)).map { "    " + $0 }
            }
        }
        return lines
    }

    /// Text from the file as the summary shows it: control characters escaped,
    /// cut with a marker when long (a label may be a block scalar of 300,000 lines).
    static func shown(_ text: String) -> String {
        DisplayText.quoted(text, maxScalars: 120)
    }

    private static func wordsText(_ source: StateSource) -> String {
        // The scale is asked here: a field on a 0-1 scale reads 0.4 as 1 % open and is never closed short of 0.
        if source.isPosition {
            return source.isInverted ? " position in percent, inverted (100 = closed, 0 = open; not a 0-1 scale)"
                : " position in percent (0 = closed, 100 = open; not a 0-1 scale)"
        }
        var text = source.onValue.isEmpty ? "" : " on=\(source.onValue) off=\(source.offValue)"
        for meaning in source.meanings { text += " \(meaning.reading.rawValue.replacing(" ", with: "_"))=\(meaning.value)" }
        return text
    }

    /// What a cover or lock tile may do: its travel time, whether it unlocks, its pulse.
    static func deviceLines(_ action: ActionConfig) -> [String] {
        guard action.kind == .toggle, action.device != .plainSwitch else { return [] }
        var line = "device       \(action.device.rawValue), travel time \(action.effectiveTravelTimeMs) ms"
        if action.device == .lock {
            line += action.allowUnlock ? ", may unlock (allow_unlock: true)"
                : ", lock-only: an unlock press sends nothing (add 'allow_unlock: true' to let it unlock)"
        }
        var lines = [line]
        if let pulse = action.pulse {
            lines.append("pulse        \(pulse.topic) payload=\(shown(pulse.payload)) (QoS 0, only when the sensor differs, "
                         + "at most once per travel time)")
        }
        return lines
    }

    static func topicLines(_ action: ActionConfig) -> [String] {
        var lines = action.stateSources.map { source in
            "state        \(source.topic)" + (source.field.map { " [\($0.joined(separator: "."))]" } ?? "") + wordsText(source)
        }
        if let command = action.command {
            let off = command.offTopic.map { " (off to \($0))" } ?? ""
            lines.append("command      \(command.topic) on=\(command.payloadOn) off=\(command.payloadOff)\(off)")
        }
        if let availability = action.availability {
            let unavailable = availability.unavailableValue.map { "unavailable=\($0)" } ?? "(anything else: unavailable)"
            lines.append("availability \(availability.topic) available=\(availability.availableValue) \(unavailable)")
        }
        if let gateway = action.gatewayAvailability {
            lines.append("gateway      \(gateway.topic) available=\(gateway.availableValue) (unavailable when either says so)")
        }
        if let query = action.stateQuery { lines.append("state query  \(query.topic) '\(query.payload)' (sent at each connect)") }
        if action.isScene {
            let targets = action.sets.map { "\($0.actionId) \($0.on ? "on" : "off")" }.joined(separator: ", ")
            lines.append("sets         \(targets) (each through its own rules; active while all hold, then sends nothing)")
        }
        lines += action.publishes.map { "publish      \($0.topic) \($0.payload)" }
        if let active = action.activeSource { lines.append("active       \(active.topic) = \(active.value)") }
        if !action.repeatSafe { lines.append("not safe to repeat: event ids persisted") }
        return lines.map { DisplayText.quoted($0, maxScalars: 240) }
    }
}
