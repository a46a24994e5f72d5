import AiviSim
import BridgeCore
import HTTPServer

/// The demo's web page and its small JSON API, on the project's own server.
enum DemoWebServer {
    static let widget = "demo"
    static let phones = ["mine": "Your phone", "other": "Kitchen iPad"]

    static func start(host: String, port: Int, simulator: AiviSimulator, log: DemoLog) throws(HTTPServerError) -> HTTPServer {
        var router = HTTPRouter()
        router.add("GET", "/") { _ in
            HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")],
                         body: Array(DemoPage.html.utf8))
        }
        router.add("GET", "/api/state") { request in
            .json(200, state(simulator, log, after: Int(request.queryValue("after") ?? "") ?? 0).serialized())
        }
        router.add("POST", "/api/press") { request in press(request, simulator, log) }
        return try HTTPServer.start(configuration: HTTPServerConfiguration(host: host, port: port), handler: router.handler)
    }

    static func press(_ request: HTTPRequest, _ simulator: AiviSimulator, _ log: DemoLog) -> HTTPResponse {
        guard let body = try? JSONValue.parse(bytes: request.body), let action = body["action"]?.stringValue else {
            return .json(400, "{\"error\":\"expected {\\\"action\\\": id}\"}")
        }
        let phone = phones[body["phone"]?.stringValue ?? "mine"] ?? "Your phone"
        let outcome = simulator.press(phone: phone, widget: widget, action: action)
        log.append(outcome.isAccepted
            ? "\(phone) pressed \(action): accepted by Aivi as \(outcome.eventId ?? "?")"
            : "\(phone) pressed \(action): refused by Aivi (\(outcome.refusal?.rawValue ?? "?"))")
        let answer = JSONValue.object([
            JSONMember("accepted", .bool(outcome.isAccepted)),
            JSONMember("refusal", outcome.refusal.map { .string($0.rawValue) } ?? .null),
        ])
        return .json(200, answer.serialized())
    }

    static func state(_ simulator: AiviSimulator, _ log: DemoLog, after sequence: Int) -> JSONValue {
        let published = publishedActions(simulator)
        func tiles(_ phone: String) -> JSONValue {
            .array(simulator.tiles(phone: phone, widget: widget).map { tile in
                var members = [
                    JSONMember("id", .string(tile.id)), JSONMember("label", .string(tile.label)),
                    JSONMember("kind", .string(tile.kind.rawValue)), JSONMember("state", .string(tile.state.rawValue)),
                    JSONMember("on", .bool(tile.publishedOnOrActive)),
                ]
                for key in ["icon", "color", "subtitle"] {
                    if let value = published[tile.id]?[key] { members.append(JSONMember(key, value)) }
                }
                return .object(members)
            })
        }
        let html = JSONValue.object([
            JSONMember("medium", .string(SwitchboardTileHTML.widget(faces(simulator, "Your phone"), size: .medium, isPressable: true))),
            JSONMember("small", .string(SwitchboardTileHTML.widget(faces(simulator, "Your phone"), size: .small, isPressable: true))),
            JSONMember("other", .string(SwitchboardTileHTML.widget(faces(simulator, "Kitchen iPad"), size: .medium, isPressable: true))),
        ])
        let lines = log.lines(after: sequence).map { line in
            JSONValue.object([JSONMember("seq", .int(Int64(line.sequence))), JSONMember("text", .string(line.text))])
        }
        return .object([
            JSONMember("mine", tiles("Your phone")), JSONMember("other", tiles("Kitchen iPad")),
            JSONMember("html", html), JSONMember("log", .array(lines)),
        ])
    }

    /// One phone's tiles as the shared drawing takes them: the phone's state
    /// words, with the icon, color and subtitle last published.
    static func faces(_ simulator: AiviSimulator, _ phone: String) -> [TileFace] {
        let published = publishedActions(simulator)
        return simulator.tiles(phone: phone, widget: widget).map { tile in
            let fields = published[tile.id]
            return TileFace(
                id: tile.id, label: tile.label, isToggle: tile.kind == .toggle,
                state: tile.state, isShownOn: tile.publishedOnOrActive,
                icon: fields?["icon"]?.stringValue, color: fields?["color"]?.stringValue,
                subtitle: fields?["subtitle"]?.stringValue)
        }
    }

    /// The last published action objects, by id (for icons, colors, subtitles).
    static func publishedActions(_ simulator: AiviSimulator) -> [String: JSONValue] {
        guard case .array(let actions)? = simulator.content(slug: widget)?["actions"] else { return [:] }
        var byId: [String: JSONValue] = [:]
        for action in actions { if let id = action["id"]?.stringValue { byId[id] = action } }
        return byId
    }
}
