import BridgeCore
import Glibc

/// Where `watch` writes: stdout, line-buffered, human or JSON lines; problems
/// of the connection go to stderr.
struct WatchOutput: Sendable {
    let json: Bool
    let configPath: String
    let broker: String
    let seconds: Int?

    func start(topics: Int) {
        if !json { line(WatchFormat.humanHeader(config: configPath, broker: broker, topics: topics, seconds: seconds)) }
    }

    func query(_ query: OutgoingMQTTMessage) {
        line(json ? WatchFormat.jsonQuery(query) : WatchFormat.humanQuery(query))
    }

    func event(_ event: WatchEvent) {
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
        StandardErrorWriter.writeLine("watch: \(text)")
    }
}
