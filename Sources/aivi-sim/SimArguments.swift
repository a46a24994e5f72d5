import AiviSim

/// The command line of `aivi-sim`, parsed by hand.
struct SimArguments {
    static let usage = """
    usage: aivi-sim --token TOKEN --widget SLUG [--widget SLUG ...] [options]

    A stand-in for the Aivi service and its phones, on loopback HTTP.

    options:
      --port N              port to listen on (default 8080; 0 picks a free one)
      --host ADDRESS        127.0.0.1 (default) or ::1
      --token TOKEN         the owner's API token (required)
      --widget SLUG         a Switchboard widget of the account (required, repeatable)
      --keepalive-ms N      silence before a keepalive comment on /events (default 15000)
      --retry-ms N          send `retry: N` at the start of every event stream
      --events-path PATH    path of the event stream (default /events)
      --max-body-bytes N    largest PATCH body; larger gets 413 (default 65536)
      --manual-clock        fake time: it moves only by POST /_sim/clock/advance
      --help                show this text

    service:  PATCH /widget/{slug}, GET /events (Server-Sent Events)
    control:  POST /_sim/press {"phone","widget","action"}
              GET  /_sim/widgets/{slug}     content and publish history
              GET  /_sim/phones/{name}      what each tile shows on that phone
              GET  /_sim/events, GET /_sim/streams, GET /_sim/clock
              POST /_sim/clock/advance {"ms"}
              POST /_sim/faults/fail-patches {"count","status","retry_after_s"}
              POST /_sim/faults/delay-answers {"ms"}
              POST /_sim/faults/delay-events {"ms"}
              POST /_sim/faults/duplicate-events {"count"}
              POST /_sim/faults/drop-streams {"mode": "close" | "half_open"}
              POST /_sim/faults/inject-event {"kind": "malformed" | "unknown_type"}
              POST /_sim/faults/clear
    """

    var settings: SimSettings
    var usesManualClock = false

    /// What parsing gave: settings to run with, a request for help, or an error.
    enum Outcome {
        case run(SimArguments)
        case help
        case invalid(String)
    }

    static func parse(_ arguments: [String]) -> Outcome {
        var settings = SimSettings(token: "", widgetSlugs: [])
        settings.port = 8080
        var usesManualClock = false
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            if flag == "--help" || flag == "-h" { return .help }
            if flag == "--manual-clock" { usesManualClock = true; continue }
            guard let value = remaining.popFirst() else { return .invalid("\(flag) needs a value") }
            if let problem = apply(flag, value, to: &settings) { return .invalid(problem) }
        }
        if settings.token.isEmpty { return .invalid("--token is required") }
        if settings.widgetSlugs.isEmpty { return .invalid("at least one --widget is required") }
        return .run(SimArguments(settings: settings, usesManualClock: usesManualClock))
    }

    private static func apply(_ flag: String, _ value: String, to settings: inout SimSettings) -> String? {
        switch flag {
        case "--port":
            guard let port = Int(value), (0...65535).contains(port) else { return "--port must be 0...65535" }
            settings.port = port
        case "--host": settings.host = value
        case "--token": settings.token = value
        case "--widget": settings.widgetSlugs.append(value)
        case "--events-path": settings.eventsPath = value
        case "--keepalive-ms":
            guard let milliseconds = Int64(value), milliseconds > 0 else { return "--keepalive-ms must be > 0" }
            settings.keepaliveIntervalMs = milliseconds
        case "--retry-ms":
            guard let milliseconds = Int(value), milliseconds >= 0 else { return "--retry-ms must be >= 0" }
            settings.sseRetryMs = milliseconds
        case "--max-body-bytes":
            guard let bytes = Int(value), bytes > 0 else { return "--max-body-bytes must be > 0" }
            settings.maxBodyBytes = bytes
        default: return "unknown option \(flag) (see --help)"
        }
        return nil
    }
}
