import AiviSim
import BridgeCore
import ShellSupport

/// A simulator on a free loopback port with a manual clock, stopped on deinit.
final class SimFixture {
    static let token = "test-token-9f2c"
    static let slug = "living-room"
    let clock = SimulatedBoardClock.service()
    let simulator: AiviSimulator

    init(configure: (inout SimSettings) -> Void = { _ in }) throws {
        var settings = SimSettings(token: Self.token, widgetSlugs: [Self.slug, "garden"])
        configure(&settings)
        simulator = try AiviSimulator.start(settings: settings, clock: clock)
    }

    deinit { simulator.stop() }

    var port: Int { simulator.port }

    /// Actions: porch (toggle), fountain (toggle), movie (button).
    static func actions(porchOn: Bool = false, fountainOn: Bool = true, movieActive: Bool = false,
                        movieSubtitle: String = "Scene") -> String {
        """
        [{"id":"porch","label":"Porch light","icon":"lightbulb.fill","kind":"toggle","color":"yellow","on":\(porchOn)},\
        {"id":"fountain","label":"Fountain","kind":"toggle","color":"#00FFFF","on":\(fountainOn)},\
        {"id":"movie","label":"Movie","icon":"tv.fill","subtitle":"\(movieSubtitle)","active":\(movieActive)}]
        """
    }

    static func body(actions: String) -> String {
        "{\"content\":{\"template\":\"switchboard\",\"actions\":\(actions)}}"
    }

    /// PATCHes the widget over HTTP and returns the status.
    @discardableResult
    func publish(_ actions: String = SimFixture.actions(), slug: String = SimFixture.slug) throws -> Int {
        try TestHTTP.request(port: port, "PATCH", "/widget/\(slug)",
                             headers: [("Authorization", "Token \(Self.token)"), ("Content-Type", "application/json")],
                             body: Self.body(actions: actions)).status
    }

    /// What `tile` shows on `phone`.
    func state(_ phone: String, _ tile: String) -> TileState? {
        simulator.tiles(phone: phone, widget: Self.slug).first(where: { $0.id == tile })?.state
    }
}
