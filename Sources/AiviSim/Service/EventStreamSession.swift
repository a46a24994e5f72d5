import BridgeCore
import HTTPServer

/// `GET /events`: Server-Sent Events carrying every press of the account.
enum EventStreamSession {
    /// How often the stream's loop looks for work (real time).
    static let pollIntervalMs = 15

    static func reply(to request: HTTPRequest, _ simulator: AiviSimulator) -> HTTPReply {
        let openedAtMs = simulator.clock.nowMs
        let opened = simulator.withState {
            $0.openStream(authorization: request.header("Authorization"), lastEventId: request.header("Last-Event-ID"))
        }
        guard let opened else {
            let body = JSONValue.object([JSONMember("error", .string("invalid token"))]).serialized()
            return .response(.json(401, body))
        }
        let headers = [
            HTTPHeader("Content-Type", ServerSentEvents.contentType),
            HTTPHeader("Cache-Control", "no-cache"),
        ]
        return .stream(status: 200, headers: headers) { stream in
            run(stream, streamId: opened.id, cursor: opened.cursor, openedAtMs: openedAtMs, simulator)
            simulator.withState { $0.closeStream(opened.id) }
        }
    }

    private static func run(_ stream: HTTPResponseStream, streamId: Int, cursor startCursor: Int,
                            openedAtMs: Int64, _ simulator: AiviSimulator) {
        let keepaliveMs = simulator.settings.keepaliveIntervalMs
        var cursor = startCursor
        var lastWriteMs = openedAtMs
        if let retryMs = simulator.settings.sseRetryMs, !stream.write("retry: \(retryMs)\n\n") { return }
        while stream.isOpen && !simulator.isStopped {
            let nowMs = simulator.clock.nowMs
            switch simulator.withState({ $0.work(forStream: streamId, cursor: cursor, nowMs: nowMs) }) {
            case .close:
                return
            case .stayQuiet:
                break
            case .send(let frames, let newCursor):
                cursor = newCursor
                for frame in frames {
                    guard stream.write(frame) else { return }
                    simulator.notify(.frameWritten(frame))
                    lastWriteMs = nowMs
                }
                if nowMs - lastWriteMs >= keepaliveMs {
                    guard stream.writeComment("keepalive") else { return }
                    lastWriteMs = nowMs
                }
            }
            RealTime.sleep(milliseconds: pollIntervalMs)
        }
    }
}
