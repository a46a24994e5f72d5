import BridgeCore
import HTTPServer
import ShellSupport

/// The `/_sim/` control API: presses as a phone, what phones show, the service's
/// records, fault injection and the manual clock. JSON in, JSON out.
enum ControlAPI {
    /// The most one clock advance may move (a year), so time arithmetic cannot overflow.
    static let maxAdvanceMs: Int64 = 365 * 86_400_000

    static func register(on router: inout HTTPRouter<HTTPHandler>, _ simulator: AiviSimulator) {
        router.add("POST", "/_sim/press") { request in json(request) { press($0, simulator) } }
        router.add("GET", "/_sim/widgets/*") { widget($0, simulator) }
        router.add("GET", "/_sim/phones/*") { phone($0, simulator) }
        router.add("GET", "/_sim/events") { _ in
            reply(200, .object([JSONMember("events", .array(simulator.events().map(SimJSON.event)))]))
        }
        router.add("GET", "/_sim/streams") { _ in
            reply(200, SimJSON.object([("open", .int(Int64(simulator.openEventStreamCount)))]))
        }
        router.add("GET", "/_sim/clock") { _ in clock(simulator) }
        router.add("POST", "/_sim/clock/advance") { request in json(request) { advance($0, simulator) } }
        router.add("POST", "/_sim/faults/*") { request in json(request) { fault(request.path, $0, simulator) } }
    }

    private static func reply(_ status: Int, _ body: JSONValue) -> HTTPResponse {
        .json(status, body.serialized())
    }

    /// Parses the body (empty counts as `{}`) and runs `body` on it.
    private static func json(_ request: HTTPRequest, _ body: (JSONValue) -> HTTPResponse) -> HTTPResponse {
        if request.body.isEmpty { return body(.object([])) }
        do {
            return body(try JSONValue.parse(bytes: request.body))
        } catch {
            return reply(400, SimJSON.error("body is not JSON: \(error)"))
        }
    }

    private static func press(_ body: JSONValue, _ simulator: AiviSimulator) -> HTTPResponse {
        guard let phone = body["phone"]?.stringValue, let widget = body["widget"]?.stringValue,
              let action = body["action"]?.stringValue else {
            return reply(400, SimJSON.error("phone, widget and action are required strings"))
        }
        let outcome = simulator.press(phone: phone, widget: widget, action: action)
        let isUnknown = outcome.refusal == .unknownWidget || outcome.refusal == .unknownAction
        return reply(isUnknown ? 404 : 200, SimJSON.outcome(outcome))
    }

    private static func widget(_ request: HTTPRequest, _ simulator: AiviSimulator) -> HTTPResponse {
        let segments = request.pathSegments
        guard segments.count == 3, simulator.settings.widgetSlugs.contains(segments[2]) else {
            return reply(404, SimJSON.error("no widget with that slug"))
        }
        let slug = segments[2]
        return reply(200, SimJSON.object([
            ("slug", .string(slug)),
            ("content", simulator.content(slug: slug) ?? .null),
            ("history", .array(simulator.history(slug: slug).map(SimJSON.publish))),
        ]))
    }

    private static func phone(_ request: HTTPRequest, _ simulator: AiviSimulator) -> HTTPResponse {
        let segments = request.pathSegments
        guard segments.count == 3 else { return reply(404, SimJSON.error("GET /_sim/phones/{name}")) }
        let widgets = simulator.tiles(phone: segments[2]).map { entry in
            JSONMember(entry.slug, .array(entry.tiles.map(SimJSON.tile)))
        }
        return reply(200, SimJSON.object([("phone", .string(segments[2])), ("widgets", .object(widgets))]))
    }

    private static func clock(_ simulator: AiviSimulator) -> HTTPResponse {
        let nowMs = simulator.clock.nowMs
        return reply(200, SimJSON.object([
            ("now", .string(SimTimeFormat.iso8601(ms: nowMs))),
            ("now_ms", .int(nowMs)),
            ("manual", .bool(simulator.clock is SimulatedBoardClock)),
        ]))
    }

    private static func advance(_ body: JSONValue, _ simulator: AiviSimulator) -> HTTPResponse {
        guard let manual = simulator.clock as? SimulatedBoardClock else {
            return reply(409, SimJSON.error("the simulator runs on the system clock (start it with --manual-clock)"))
        }
        guard let milliseconds = body["ms"]?.integerValue, (0...maxAdvanceMs).contains(milliseconds) else {
            return reply(400, SimJSON.error("ms is required, a whole number from 0 to \(maxAdvanceMs)"))
        }
        manual.advance(byMs: milliseconds)
        return clock(simulator)
    }

    private static func fault(_ path: String, _ body: JSONValue, _ simulator: AiviSimulator) -> HTTPResponse {
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        guard let apply = FaultRequest.handlers[name] else {
            return reply(404, SimJSON.error("unknown fault \(name); known: \(FaultRequest.handlers.keys.sorted())"))
        }
        if let problem = apply(body, simulator) { return reply(400, SimJSON.error(problem)) }
        return reply(200, SimJSON.object([("ok", .bool(true))]))
    }
}
