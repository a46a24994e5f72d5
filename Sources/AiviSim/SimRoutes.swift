import BridgeCore
import HTTPServer

/// The simulator's HTTP surface: the service's endpoints and the `/_sim/` control API.
enum SimRoutes {
    static func handler(for simulator: AiviSimulator) -> HTTPHandler {
        var router = HTTPRouter<HTTPHandler>()
        router.addStreaming("PATCH", "/widget/*") { request in
            if simulator.withState({ $0.faults.takePatchReset() }) {
                simulator.notify(.patchReceived(slug: request.pathSegments.last ?? ""))
                simulator.notify(.patchRefused(slug: request.pathSegments.last ?? "", status: 0))
                return .reset
            }
            let (response, delayMs) = patchWidget(request, simulator)
            guard delayMs > 0 else { return .response(response) }
            return .deferred {
                waitUnlessStopped(milliseconds: delayMs, simulator)
                return .response(response)
            }
        }
        router.addStreaming("GET", simulator.settings.eventsPath) { EventStreamSession.reply(to: $0, simulator) }
        ControlAPI.register(on: &router, simulator)
        let routed = router.handler
        return { request in
            stamped(routed(request), HTTPHeader("Date", SimTimeFormat.httpDate(ms: simulator.clock.nowMs)))
        }
    }

    /// The reply with the service's `Date` header (taken when the request came).
    private static func stamped(_ reply: HTTPReply, _ dateHeader: HTTPHeader) -> HTTPReply {
        switch reply {
        case .response(var response):
            response.headers.append(dateHeader)
            return .response(response)
        case .stream(let status, let headers, let body):
            return .stream(status: status, headers: headers + [dateHeader], body: body)
        case .reset:
            return .reset
        case .deferred(let work):
            return .deferred { stamped(work(), dateHeader) }
        }
    }

    /// The answer to a PATCH and how long it is held back (real time, ms).
    private static func patchWidget(_ request: HTTPRequest, _ simulator: AiviSimulator) -> (HTTPResponse, delayMs: Int) {
        let segments = request.pathSegments
        guard segments.count == 2 else { return (jsonResponse(PatchAnswer.error(404, "no widget with that slug")), 0) }
        let slug = segments[1]
        simulator.notify(.patchReceived(slug: slug))
        let nowMs = simulator.clock.nowMs
        let (answer, delayMs, stored) = simulator.withState { state in
            let answer = state.patch(slug: slug, authorization: request.header("Authorization"),
                                     body: request.body, nowMs: nowMs)
            return (answer, state.faults.answerDelayMs, answer.status == 200 ? state.histories[slug]?.last?.content : nil)
        }
        if let stored {
            simulator.notify(.published(slug: slug, content: stored))
        } else {
            simulator.notify(.patchRefused(slug: slug, status: answer.status))
        }
        return (jsonResponse(answer), delayMs)
    }

    private static func jsonResponse(_ answer: PatchAnswer) -> HTTPResponse {
        var headers: [HTTPHeader] = []
        if let seconds = answer.retryAfterSeconds { headers.append(HTTPHeader("Retry-After", String(seconds))) }
        return .json(answer.status, answer.body.serialized(), headers: headers)
    }

    /// A real-time wait in short steps, cut short when the simulator stops.
    private static func waitUnlessStopped(milliseconds: Int, _ simulator: AiviSimulator) {
        var waitedMs = 0
        while waitedMs < milliseconds && !simulator.isStopped {
            let stepMs = min(10, milliseconds - waitedMs)
            RealTime.sleep(milliseconds: stepMs)
            waitedMs += stepMs
        }
    }
}
