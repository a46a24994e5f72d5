import BridgeCore
import Testing

@testable import BridgeDaemon

@Suite("Health check and status endpoints")
struct StatusEndpointsTests {
    @Test(arguments: [
        (true, true, 200, "ok\n"),
        (false, true, 503, "mqtt disconnected\n"),
        (true, false, 503, "event stream disconnected\n"),
        (false, false, 503, "mqtt disconnected; event stream disconnected\n"),
    ])
    func healthFollowsBothConnections(mqtt: Bool, stream: Bool, status: Int, body: String) {
        let health = HealthCheck.evaluate(StatusFixtures.snapshot(mqtt: mqtt, stream: stream))
        #expect(health.status == status)
        #expect(health.body == body)
    }

    @Test func healthBeforeTheFirstBatchIsUnavailable() {
        #expect(HealthCheck.evaluate(nil) == (503, "starting\n"))
    }

    @Test(arguments: [
        ("GET", "/widget", 200, StatusEndpoints.jsonContentType),
        ("GET", "/widget?x=1", 200, StatusEndpoints.jsonContentType),
        ("GET", "/healthz", 200, StatusEndpoints.plainTextContentType),
        ("GET", "/metrics", 200, PrometheusText.contentType),
        ("HEAD", "/metrics", 200, PrometheusText.contentType),
        ("GET", "/", 200, StatusPage.htmlContentType),
        ("GET", "/?x=1", 200, StatusPage.htmlContentType),
        ("GET", "/live", 200, StatusPage.htmlContentType),
        ("HEAD", "/live", 200, StatusPage.htmlContentType),
        ("GET", "/page.js", 200, StatusPage.scriptContentType),
        ("POST", "/", 405, StatusEndpoints.plainTextContentType),
        ("POST", "/live", 405, StatusEndpoints.plainTextContentType),
        ("GET", "/index.html", 404, StatusEndpoints.plainTextContentType),
        ("GET", "/widget/extra", 404, StatusEndpoints.plainTextContentType),
        ("GET", "/WIDGET", 404, StatusEndpoints.plainTextContentType),
        ("POST", "/widget", 405, StatusEndpoints.plainTextContentType),
        ("PUT", "/metrics", 405, StatusEndpoints.plainTextContentType),
        ("DELETE", "/healthz", 405, StatusEndpoints.plainTextContentType),
        ("get", "/healthz", 405, StatusEndpoints.plainTextContentType),
        ("POST", "/nowhere", 404, StatusEndpoints.plainTextContentType),
    ])
    func routes(method: String, path: String, status: Int, contentType: String) {
        let answer = StatusEndpoints().respond(
            method: method, path: path, snapshot: StatusFixtures.snapshot(), metrics: DaemonMetrics()
        )
        #expect(answer.status == status)
        #expect(answer.contentType == contentType)
    }

    @Test func widgetServesAValidEnvelope() throws {
        let snapshot = StatusFixtures.snapshot(states: StatusFixtures.typicalStates, stream: false)
        let answer = StatusEndpoints(widgetURL: "https://example.com/bridge")
            .respond(method: "GET", path: "/widget", snapshot: snapshot, metrics: DaemonMetrics())
        let envelope = try JSONValue.parse(answer.body)
        #expect(WebhookWidgetEnvelope.validate(envelope) == [])
        #expect(envelope["url"] == .string("https://example.com/bridge"))
        #expect(envelope["accessibility"]?.stringValue?.hasSuffix("; event stream disconnected") == true)
        #expect(answer.body == StatusView.body(for: snapshot, url: "https://example.com/bridge"))
    }

    @Test func refusedWidgetURLIsLeftOut() throws {
        let answer = StatusEndpoints(widgetURL: "javascript:alert(1)")
            .respond(method: "GET", path: "/widget", snapshot: StatusFixtures.snapshot(), metrics: DaemonMetrics())
        #expect(try JSONValue.parse(answer.body)["url"] == nil)
    }

    @Test func theConfiguredPathReplacesTheDefault() {
        var status = StatusSettings()
        status.path = "/status/view.json"
        let snapshot = StatusFixtures.snapshot(config: StatusFixtures.config(status: status))
        let endpoints = StatusEndpoints()
        #expect(endpoints.respond(method: "GET", path: "/status/view.json", snapshot: snapshot, metrics: DaemonMetrics()).status == 200)
        #expect(endpoints.respond(method: "GET", path: "/widget", snapshot: snapshot, metrics: DaemonMetrics()).status == 404)
    }

    /// Issue 42: the endpoints route through the one `HTTPRouter`. A widget path on
    /// the page's `/` wins over the page; one on `/healthz` or `/metrics` does not take
    /// them over, for GET and HEAD alike (HEAD used to answer as the widget there).
    @Test(arguments: [
        ("/", "GET", 200, StatusEndpoints.jsonContentType),
        ("/", "HEAD", 200, StatusEndpoints.jsonContentType),
        ("/healthz", "GET", 200, StatusEndpoints.plainTextContentType),
        ("/healthz", "HEAD", 200, StatusEndpoints.plainTextContentType),
        ("/metrics", "GET", 200, PrometheusText.contentType),
        ("/metrics", "HEAD", 200, PrometheusText.contentType),
    ])
    func aWidgetPathOnAnotherEndpointsPathRoutesOneWayForGETAndHEAD(widgetPath: String, method: String, status: Int, contentType: String) {
        var settings = StatusSettings()
        settings.path = widgetPath
        let snapshot = StatusFixtures.snapshot(config: StatusFixtures.config(status: settings))
        let answer = StatusEndpoints().respond(method: method, path: widgetPath, snapshot: snapshot, metrics: DaemonMetrics())
        #expect(answer.status == status)
        #expect(answer.contentType == contentType)
        #expect(StatusEndpoints.isRendered(widgetPath, widgetPath: widgetPath) == (widgetPath == "/"))
    }

    @Test func healthzCarriesTheReason() {
        let answer = StatusEndpoints().respond(
            method: "GET", path: "/healthz", snapshot: StatusFixtures.snapshot(mqtt: false), metrics: DaemonMetrics()
        )
        #expect(answer.status == 503)
        #expect(answer.body == "mqtt disconnected\n")
    }

    @Test func metricsIncludeCountersAndConnectionGauges() {
        let metrics = DaemonMetrics()
        metrics.record(.pressReceived(eventId: "e"))
        let snapshot = StatusFixtures.snapshot(mqtt: true, stream: false, offsetMs: -1_250)
        let answer = StatusEndpoints().respond(method: "GET", path: "/metrics", snapshot: snapshot, metrics: metrics)
        #expect(answer.body.contains("\nswitchboard_bridge_presses_received_total 1\n"))
        #expect(answer.body.contains("\nswitchboard_bridge_mqtt_connected 1\n"))
        #expect(answer.body.contains("\nswitchboard_bridge_event_stream_connected 0\n"))
        #expect(answer.body.contains("\nswitchboard_bridge_server_clock_offset_seconds -1.25\n"))
        #expect(PrometheusFormatCheck.problems(in: answer.body) == [])
    }

    @Test func beforeTheFirstBatch() {
        let endpoints = StatusEndpoints()
        let metrics = DaemonMetrics()
        #expect(endpoints.respond(method: "GET", path: "/widget", snapshot: nil, metrics: metrics).status == 503)
        #expect(endpoints.respond(method: "GET", path: "/healthz", snapshot: nil, metrics: metrics).status == 503)
        let scrape = endpoints.respond(method: "GET", path: "/metrics", snapshot: nil, metrics: metrics)
        #expect(scrape.status == 200)
        #expect(!scrape.body.contains("mqtt_connected"))
    }

    @Test(arguments: ["/widget", "/healthz", "/metrics"])
    func headAnswersLikeGetWithoutABody(path: String) {
        let snapshot = StatusFixtures.snapshot(mqtt: false)
        let metrics = DaemonMetrics()
        let get = StatusEndpoints().respond(method: "GET", path: path, snapshot: snapshot, metrics: metrics)
        let head = StatusEndpoints().respond(method: "HEAD", path: path, snapshot: snapshot, metrics: metrics)
        #expect(head.status == get.status)
        #expect(head.contentType == get.contentType)
        #expect(head.body.isEmpty)
        #expect(!get.body.isEmpty)
    }

    @Test func thePageAndItsLivePartComeFromTheSameSnapshot() {
        let snapshot = StatusFixtures.snapshot(states: StatusFixtures.typicalStates)
        let endpoints = StatusEndpoints()
        let page = endpoints.respond(method: "GET", path: "/", snapshot: snapshot, metrics: DaemonMetrics(), nowMs: 5_000)
        let live = endpoints.respond(method: "GET", path: "/live", snapshot: snapshot, metrics: DaemonMetrics(), nowMs: 5_000)
        #expect(page.body == StatusPage.document(snapshot, nowMs: 5_000))
        #expect(page.body.contains("<main id=\"live\">" + live.body + "</main>"))
        #expect(endpoints.respond(method: "GET", path: "/", snapshot: nil, metrics: DaemonMetrics()).status == 503)
    }

    @Test func aWidgetPathOfSlashKeepsTheWebhookWidgetView() throws {
        var settings = StatusSettings()
        settings.path = "/"
        let snapshot = StatusFixtures.snapshot(config: StatusFixtures.config(status: settings))
        let answer = StatusEndpoints().respond(method: "GET", path: "/", snapshot: snapshot, metrics: DaemonMetrics())
        #expect(answer.contentType == StatusEndpoints.jsonContentType)
        #expect(WebhookWidgetEnvelope.validate(try JSONValue.parse(answer.body)).isEmpty)
    }

    @Test func noSecretInAnyOutput() {
        var config = StatusFixtures.config()
        config.aivi.tokenEnv = "SECRET_TOKEN_VARIABLE"
        config.aivi.tokenFile = "/run/credentials/secret-token-file"
        config.aivi.apiBaseURL = "https://api.example.invalid"
        config.mqtt.username = "secret-mqtt-user"
        config.mqtt.passwordFile = "/etc/secret-password-file"
        let snapshot = StatusFixtures.snapshot(config: config, states: StatusFixtures.typicalStates)
        let endpoints = StatusEndpoints()
        let outputs = ["/", "/live", "/page.js", "/widget", "/healthz", "/metrics"].map {
            endpoints.respond(method: "GET", path: $0, snapshot: snapshot, metrics: DaemonMetrics(), nowMs: 1_000).body
        }
        for secret in ["SECRET_TOKEN_VARIABLE", "secret-token-file", "secret-mqtt-user", "secret-password-file", "api.example.invalid"] {
            #expect(!outputs.contains { $0.contains(secret) }, "\(secret) shown")
        }
    }
}
