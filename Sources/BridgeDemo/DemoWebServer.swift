import AiviSim
import BridgeCore
import BridgeDaemon
import HTTPServer
import ShellSupport

/// The demo's web page and its small JSON API, on the project's own server.
enum DemoWebServer {
    static let widget = "demo"
    static let phones = ["mine": "Your phone", "other": "Kitchen iPad"]

    /// Served on the bridge's loop (`daemon.serve`): each poll reads the bridge's
    /// snapshot, so the page says why a tile did nothing, next to it.
    static func start(host: String, port: Int, simulator: AiviSimulator, log: DemoLog, daemon: Daemon) throws(HTTPServerError) -> HTTPServer {
        var router = HTTPRouter<HTTPHandler>()
        router.add("GET", "/") { _ in
            HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")],
                         body: Array(DemoPage.html.utf8))
        }
        router.add("GET", "/api/state") { request in
            .json(200, state(simulator, log, after: Int(request.queryValue("after") ?? "") ?? 0,
                             snapshot: daemon.statusSnapshot()).serialized())
        }
        router.add("POST", "/api/press") { request in press(request, simulator, log) }
        return try daemon.serve(HTTPServerConfiguration(host: host, port: port), handler: router.handler)
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

    static func state(_ simulator: AiviSimulator, _ log: DemoLog, after sequence: Int, snapshot: BridgeSnapshot?) -> JSONValue {
        let published = publishedActions(simulator)
        let mine = faces(simulator, "Your phone", snapshot), other = faces(simulator, "Kitchen iPad", snapshot)
        let words = Dictionary(mine.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func tiles(_ phone: String) -> JSONValue {
            .array(simulator.tiles(phone: phone, widget: widget).map { tile in
                var members = [
                    JSONMember("id", .string(tile.id)), JSONMember("label", .string(tile.label)),
                    JSONMember("kind", .string(tile.kind.rawValue)), JSONMember("state", .string(tile.state.rawValue)),
                    JSONMember("on", .bool(tile.publishedOnOrActive)),
                ]
                // What the page draws: the tile's own word, and why it did nothing (the pressing phone's).
                if phone == "Your phone", let face = words[tile.id] {
                    members.append(JSONMember("words", .string(face.stateWord)))
                    if let note = face.note { members.append(JSONMember("why", .string(note))) }
                }
                for key in ["icon", "color", "subtitle"] {
                    if let value = published[tile.id]?[key] { members.append(JSONMember(key, value)) }
                }
                return .object(members)
            })
        }
        let html = JSONValue.object([
            JSONMember("medium", .string(SwitchboardTileHTML.widget(mine, size: .medium, isPressable: true)
                                         + SwitchboardTileHTML.notes(mine))),
            JSONMember("small", .string(SwitchboardTileHTML.widget(mine, size: .small, isPressable: true))),
            JSONMember("other", .string(SwitchboardTileHTML.widget(other, size: .medium, isPressable: true))),
        ])
        let lines = log.lines(after: sequence).map { line in
            JSONValue.object([JSONMember("seq", .int(Int64(line.sequence))), JSONMember("text", .string(line.text))])
        }
        return .object([
            JSONMember("mine", tiles("Your phone")), JSONMember("other", tiles("Kitchen iPad")),
            JSONMember("html", html), JSONMember("log", .array(lines)),
        ])
    }

    /// One phone's tiles as the shared drawing takes them: the phone's states,
    /// with the icon, color, subtitle and state words last published, and the
    /// bridge's words (Offline, Jammed, why a press did nothing) from `snapshot`.
    static func faces(_ simulator: AiviSimulator, _ phone: String, _ snapshot: BridgeSnapshot?) -> [TileFace] {
        let published = publishedActions(simulator)
        let faces = simulator.tiles(phone: phone, widget: widget).map { tile in
            let fields = published[tile.id]
            return TileFace(
                id: tile.id, label: tile.label, isToggle: tile.kind == .toggle,
                state: tile.state, isShownOn: tile.publishedOnOrActive,
                icon: fields?["icon"]?.stringValue, color: fields?["color"]?.stringValue,
                subtitle: fields?["subtitle"]?.stringValue, stateWords: TileStateWords(fields?["state_words"]))
        }
        guard let snapshot else { return faces }
        return TileNote.annotated(faces, slug: widget, snapshot, nowMs: WallClock.nowEpochMs())
    }

    /// The last published action objects, by id (for icons, colors, subtitles).
    static func publishedActions(_ simulator: AiviSimulator) -> [String: JSONValue] {
        guard case .array(let actions)? = simulator.content(slug: widget)?["actions"] else { return [:] }
        var byId: [String: JSONValue] = [:]
        for action in actions { if let id = action["id"]?.stringValue { byId[id] = action } }
        return byId
    }
}
