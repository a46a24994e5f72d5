/// What a handler answers: a complete response, or a streamed one.
public enum HTTPReply: Sendable {
    /// A complete response; the connection may be kept alive afterwards.
    case response(HTTPResponse)
    /// A streamed response (chunked transfer encoding), e.g. Server-Sent Events.
    /// `body` runs on a worker thread and writes through the stream for as long as it
    /// likes (bounded by `maxStreamBufferedBytes` ahead of its client); when it returns
    /// the stream ends cleanly and the connection closes.
    case stream(status: Int, headers: [HTTPHeader], body: @Sendable (HTTPResponseStream) -> Void)
    /// No answer at all: the connection is reset (a fault a simulator injects).
    case reset
    /// The answer must wait (a delay a simulator injects): `body` runs on a worker
    /// thread, the loop goes on meanwhile, and the reply it returns is sent.
    case deferred(@Sendable () -> HTTPReply)
}

/// A request handler, once per request, on the server's loop thread: it must not
/// block (what has to wait returns `.deferred`).
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPReply
