import BridgeCore

/// `switchboard-bridge check`: every error of the config at once, or a summary
/// of its widgets, actions and topics; also whether the token can be read.
public enum CheckCommand {
    /// Runs the check; returns the exit status and what to print.
    public static func run(configPath: String, environment: [String: String]) -> (status: Int32, output: String) {
        let loaded = ConfigFile.load(path: configPath)
        guard let config = loaded.config else { return (1, loaded.report) }
        var lines: [String] = []
        if !loaded.report.isEmpty { lines.append(loaded.report) }
        let token = tokenProblems(config, environment)
        lines += token.lines
        lines.append("\(configPath): config ok: \(summaryHeadline(config))")
        lines += summary(config)
        return (token.isError ? 1 : 0, lines.joined(separator: "\n"))
    }

    static func summaryHeadline(_ config: BridgeConfig) -> String {
        let actions = config.widgets.reduce(0) { $0 + $1.actions.count }
        let topics = Set(config.allActions.flatMap { $0.action.subscribedTopics }).count
        return "\(config.widgets.count) widget(s), \(actions) action(s), \(topics) subscribed topic(s)"
    }

    static func summary(_ config: BridgeConfig) -> [String] {
        var lines: [String] = []
        for widget in config.widgets {
            lines.append("widget \(widget.slug)")
            for action in widget.actions {
                let preset = action.preset.map { " (\($0))" } ?? ""
                lines.append("  \(action.id): \(action.kind.rawValue)\(preset) '\(action.label)'")
                lines += topicLines(action).map { "    " + $0 }
            }
        }
        return lines
    }

    static func topicLines(_ action: ActionConfig) -> [String] {
        var lines = action.stateSources.map { source in
            "state        \(source.topic)" + (source.field.map { " [\($0.joined(separator: "."))]" } ?? "")
                + " on=\(source.onValue) off=\(source.offValue)"
        }
        if let command = action.command {
            lines.append("command      \(command.topic) on=\(command.payloadOn) off=\(command.payloadOff)")
        }
        if let availability = action.availability {
            let unavailable = availability.unavailableValue.map { "unavailable=\($0)" } ?? "(anything else: unavailable)"
            lines.append("availability \(availability.topic) available=\(availability.availableValue) \(unavailable)")
        }
        lines += action.publishes.map { "publish      \($0.topic) \($0.payload)" }
        if let active = action.activeSource { lines.append("active       \(active.topic) = \(active.value)") }
        if !action.repeatSafe { lines.append("not safe to repeat: event ids persisted") }
        return lines
    }

    static func tokenProblems(_ config: BridgeConfig, _ environment: [String: String]) -> (lines: [String], isError: Bool) {
        let loader = CredentialLoader(
            tokenFilePath: config.aivi.tokenFile, tokenEnvironmentVariable: config.aivi.tokenEnv, environment: environment)
        do {
            let token = try loader.load()
            return (token.warnings.map { "warning: \($0)" }, false)
        } catch {
            return (["error: the API token cannot be read: \(error)"], true)
        }
    }
}
