import Testing
@testable import BridgeCore

/// The status page's HTML, rendered in the core from a snapshot: every tile
/// state drawn as the phone does, hostile names and payloads shown as text,
/// no secret anywhere.
@Suite("Status page: the HTML")
struct StatusPageTests {
    struct TileCase: Sendable, CustomStringConvertible {
        var state: TileFaceState
        var isToggle = true
        var isShownOn = false
        var classes: String
        var second: String
        var description: String { "\(state.rawValue) \(isToggle ? "toggle" : "button") shown \(isShownOn ? "on" : "off")" }
    }

    static let tileCases: [TileCase] = [
        TileCase(state: .off, classes: "tile muted", second: "Off"),
        TileCase(state: .on, isShownOn: true, classes: "tile filled pale", second: "On"),
        TileCase(state: .idle, isToggle: false, classes: "tile", second: "Dim the lights"),
        TileCase(state: .active, isToggle: false, isShownOn: true, classes: "tile filled pale", second: "Active"),
        TileCase(state: .turningOn, classes: "tile wash", second: "Turning on"),
        TileCase(state: .turningOff, isShownOn: true, classes: "tile fading", second: "Turning off"),
        TileCase(state: .noResponse, isShownOn: true, classes: "tile filled pale", second: "No response"),
        TileCase(state: .noResponse, classes: "tile muted", second: "No response"),
        TileCase(state: .noResponse, isToggle: false, classes: "tile", second: "No response"),
        TileCase(state: .sent, isToggle: false, classes: "tile wash", second: "Sent"),
    ]

    @Test(arguments: tileCases)
    func everyTileStateIsDrawnAsThePhoneDoes(_ testCase: TileCase) {
        let face = TileFace(id: "t", label: "Porch", isToggle: testCase.isToggle, state: testCase.state,
                            isShownOn: testCase.isShownOn, icon: "lightbulb.fill", color: "yellow", subtitle: "Dim the lights")
        let html = SwitchboardTileHTML.tile(face, isPressable: false)
        #expect(html.hasPrefix("<div class=\"\(testCase.classes)\" style=\"--fill:#ffd60a\" data-action=\"t\" data-state=\"\(testCase.state.rawValue)\""), "\(html)")
        let secondClass = testCase.state == .noResponse ? "second warn" : "second"
        #expect(html.contains("<span class=\"\(secondClass)\">\(testCase.second)</span>"), "\(html)")
        #expect(html.contains(TileIcon.svg("lightbulb.fill")))
        #expect(html.contains("<span class=\"check\">✓</span>") == (testCase.state == .sent))
        #expect(SwitchboardTileHTML.tile(face, isPressable: true).hasPrefix("<button "))
    }

    @Test(arguments: [("yellow", "#ffd60a"), ("#123456", "#123456"), ("#abc", "#abc"), (nil, "#0a84ff"),
                      ("red;background:url(x)", "#0a84ff"), ("\"><script>", "#0a84ff"), ("Salmon", "Salmon")])
    func onlySafeColorsReachTheStyle(_ color: String?, _ expected: String) {
        #expect(SwitchboardTileHTML.fillColor(color) == expected)
    }

    @Test func theRestingTilesOfAnAcknowledgedBody() {
        let body = #"{"content":{"template":"switchboard","actions":[{"id":"a","label":"A","kind":"toggle","on":true},"#
            + #"{"id":"b","label":"B","kind":"toggle","on":false},{"id":"c","label":"C","active":true},{"id":"d","label":"D","subtitle":"go"}]}}"#
        #expect(TileFace.resting(body: body).map(\.state) == [.on, .off, .active, .idle])
        #expect(TileFace.resting(body: "not json").isEmpty)
    }

    static let hostile = "<script>alert(1)</script>\"'&"

    /// A config and a world where every outside text is hostile.
    static func hostileSnapshot() -> (BridgeSnapshot, Int64) {
        var config = BridgeConfig()
        config.aivi.tokenEnv = "SECRET_TOKEN_VARIABLE"
        config.aivi.tokenFile = "/run/credentials/secret-token-file"
        config.mqtt.username = "secret-mqtt-user"
        config.mqtt.passwordFile = "/etc/secret-password-file"
        config.aivi.apiBaseURL = "https://api.example.invalid"
        config.widgets = [WidgetConfig(slug: "w", actions: [
            ActionConfig(id: "x", label: hostile, kind: .toggle,
                         stateSources: [StateSource(topic: "home/<b>x</b>")], command: ToggleCommand(topic: "home/x/set")),
            ActionConfig(id: "silent", label: "Silent", kind: .toggle,
                         stateSources: [StateSource(topic: "home/silent")], command: ToggleCommand(topic: "home/silent/set")),
        ])]
        var harness = BridgeHarness(config: config)
        harness.send(.mqttConnected)
        harness.message("home/<b>x</b>", hostile)
        harness.ackAll(harness.send(.timerFired(.settle)))
        harness.message("home/<b>x</b>", "ON")
        let patch = harness.send(.timerFired(.publishInterval(slug: "w"))).patches
        if let patch = patch.first {
            harness.send(.patchCompleted(slug: "w", requestId: patch.requestId, outcome: .status(400, reason: hostile)))
        }
        return (harness.bridge.snapshot(serverClockOffsetMs: -1_500), harness.clockMs + 12_000)
    }

    @Test func hostileNamesAndPayloadsAreText() {
        let (snapshot, nowMs) = Self.hostileSnapshot()
        let page = StatusPage.document(snapshot, nowMs: nowMs)
        #expect(!page.contains("<script>alert"), "a hostile text became markup")
        #expect(!page.contains("<b>"))
        #expect(page.components(separatedBy: "<script").count == 2, "only the page's own script tag")
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;"))
        #expect(page.contains("home/&lt;b&gt;x&lt;/b&gt;"))
        #expect(page.contains("the service refused the update"), "the marker names the refusal")
    }

    @Test func theFactsOfEachTileAndTheConnections() {
        let (snapshot, nowMs) = Self.hostileSnapshot()
        let live = StatusPage.live(snapshot, nowMs: nowMs)
        #expect(live.contains("<span class=\"good\">connected</span> for 12 s; 0 reconnects"), "\(live)")
        #expect(live.contains("<dt>Bridge believes</dt><dd>on</dd>"))
        #expect(live.contains("12 s ago"))
        #expect(live.contains("never heard from</span>: nothing on <code>home/silent</code> since start"))
        #expect(live.contains("behind the board by 1 s"), "\(live)")
        #expect(live.contains("HTTP 400"))
    }

    @Test func noSecretInThePage() {
        let (snapshot, nowMs) = Self.hostileSnapshot()
        let page = StatusPage.document(snapshot, nowMs: nowMs) + StatusPage.script
        for secret in ["SECRET_TOKEN_VARIABLE", "secret-token-file", "secret-mqtt-user", "secret-password-file", "api.example.invalid"] {
            #expect(!page.contains(secret), "\(secret) is on the page")
        }
    }

    @Test func excerptsAreBounded() {
        var config = BridgeConfig()
        config.widgets = [WidgetConfig(slug: "w", actions: [
            ActionConfig(id: "x", label: "X", kind: .toggle, stateSources: [StateSource(topic: "t")], command: ToggleCommand(topic: "t/set")),
        ])]
        var harness = BridgeHarness(config: config)
        harness.send(.mqttConnected)
        harness.message("t", String(repeating: "<", count: 100_000))
        let live = StatusPage.live(harness.bridge.snapshot(serverClockOffsetMs: 0), nowMs: harness.clockMs)
        #expect(live.utf8.count < 8_000, "\(live.utf8.count) bytes")
        #expect(!live.contains("<<"))
    }

    @Test(arguments: [(0, "just now"), (999, "just now"), (-5_000, "just now"), (12_000, "12 s ago"),
                      (180_000, "3 min ago"), (3 * 3_600_000, "3 h ago"), (3 * 86_400_000, "3 d ago")])
    func ages(_ elapsedMs: Int64, _ expected: String) {
        #expect(AgeText.ago(1_000_000, nowMs: 1_000_000 + elapsedMs) == expected)
    }
}
