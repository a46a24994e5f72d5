import BridgeCore
import Glibc
import ShellSupport

/// Where `watch` writes: stdout, line-buffered, human or JSON lines; problems
/// of the connection go to stderr. For `check --mqtt` (`listensOnly`): one line
/// saying what it does, then the table, no line per message.
struct WatchOutput: Sendable {
    let json: Bool
    let configPath: String
    let broker: String
    let seconds: Int?
    var listensOnly = false

    func start(topics: Int) {
        if listensOnly {
            line("mqtt: listening \(seconds ?? 0) s on \(broker) to the \(topics) topic(s) of the config "
                 + "(the presets' state queries sent, no command)")
        } else if !json {
            line(WatchFormat.humanHeader(config: configPath, broker: broker, topics: topics, seconds: seconds))
        }
    }

    func query(_ query: OutgoingMQTTMessage) {
        guard !listensOnly else { return }
        line(json ? WatchFormat.jsonQuery(query) : WatchFormat.humanQuery(query))
    }

    func event(_ event: WatchEvent) {
        guard !listensOnly else { return }
        line(json ? WatchFormat.json(event) : WatchFormat.human(event))
    }

    func summary(_ records: [WatchSession.ActionRecord]) {
        if json {
            for record in records { line(WatchFormat.jsonSummary(record)) }
        } else {
            line("")
            for row in WatchFormat.humanSummary(records) { line(row) }
        }
    }

    /// One line on stdout, written at once (a pipe to `grep` sees it live).
    private func line(_ text: String) {
        StandardErrorWriter.writeLine(text, toDescriptor: STDOUT_FILENO)
    }

    /// A line for people only (none in `--json`).
    func note(_ text: String) {
        if !json { line(text) }
    }

    func problem(_ text: String) {
        StandardErrorWriter.writeLine("\(listensOnly ? "check" : "watch"): \(text)")
    }
}
