import AiviSim
import CommandLineParsing

/// The command line of `aivi-sim`, declared once and read by the package's one parser
/// (`CommandLineArguments`), which also makes its `--help` and its refusals.
struct SimArguments: ParsableCommand {
    static let program = "aivi-sim"
    static let name = ""
    static let abstract = "a stand-in for the Aivi service and its phones, on loopback HTTP"
    /// The longest a keepalive or `retry:` interval may be: a day.
    static let maxIntervalMs = 86_400_000

    static let portOption = CommandOption("--port", .number("N", 0...65_535), help: "port to listen on (default 8080; 0 picks a free one)")
    static let hostOption = CommandOption("--host", .text("ADDRESS"), help: "127.0.0.1 (default) or ::1")
    static let tokenOption = CommandOption("--token", .text("TOKEN"), isRequired: true, help: "the owner's API token (required)")
    static let widgetOption = CommandOption("--widget", .repeated("SLUG"), isRequired: true,
                                            help: "a Switchboard widget of the account (required, repeatable)")
    static let keepaliveOption = CommandOption("--keepalive-ms", .number("N", 1...maxIntervalMs),
                                               help: "silence before a keepalive comment on /events (default 15000)")
    static let retryOption = CommandOption("--retry-ms", .number("N", 0...maxIntervalMs),
                                           help: "send `retry: N` at the start of every event stream")
    static let eventsPathOption = CommandOption("--events-path", .text("PATH"), help: "path of the event stream (default /events)")
    static let maxBodyOption = CommandOption("--max-body-bytes", .number("N", 1...(1 << 30)),
                                             help: "largest PATCH body; larger gets 413 (default 65536)")
    static let manualClockOption = CommandOption("--manual-clock", help: "fake time: it moves only by POST /_sim/clock/advance")

    static let options = [portOption, hostOption, tokenOption, widgetOption, keepaliveOption, retryOption, eventsPathOption,
                          maxBodyOption, manualClockOption]

    static let discussion = """
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
    var usesManualClock: Bool

    init(_ arguments: CommandLineArguments) throws(CommandLineError) {
        let token = arguments.text(Self.tokenOption) ?? ""
        guard !token.isEmpty else {
            throw .refusedValue(command: Self.name, option: Self.tokenOption.name, value: token, because: "is empty: give the owner's API token")
        }
        settings = SimSettings(token: token, widgetSlugs: arguments.texts(Self.widgetOption))
        settings.port = arguments.number(Self.portOption) ?? 8080
        settings.host = arguments.text(Self.hostOption) ?? settings.host
        settings.eventsPath = arguments.text(Self.eventsPathOption) ?? settings.eventsPath
        settings.keepaliveIntervalMs = arguments.number(Self.keepaliveOption).map(Int64.init) ?? settings.keepaliveIntervalMs
        settings.sseRetryMs = arguments.number(Self.retryOption)
        settings.maxBodyBytes = arguments.number(Self.maxBodyOption) ?? settings.maxBodyBytes
        usesManualClock = arguments.flag(Self.manualClockOption)
    }
}
