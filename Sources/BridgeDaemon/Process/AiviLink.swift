import BridgeCore
import FoundationEssentials

/// The daemon's link to the Aivi service: PATCHes and the event stream.
/// (Wired to libcurl through `CurlShell`.)
final class AiviLink: Sendable {
    let settings: AiviSettings
    let token: Secret
    let relay: RuntimeRelay
    let metrics: DaemonMetrics
    let log: LogSink

    init(settings: AiviSettings, token: Secret, relay: RuntimeRelay, metrics: DaemonMetrics, log: LogSink) {
        self.settings = settings
        self.token = token
        self.relay = relay
        self.metrics = metrics
        self.log = log
    }

    func start() {}
    func stopEvents() {}
    func stop() {}

    func patch(_ request: PatchRequest, completion: @escaping @Sendable (PatchOutcome) -> Void) {
        completion(.transportFailure("HTTP is not wired yet"))
    }
}
