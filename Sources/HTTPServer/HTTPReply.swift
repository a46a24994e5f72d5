/// What a handler answers: a complete response, or a streamed one.
public enum HTTPReply: Sendable {
    /// A complete response; the connection may be kept alive afterwards.
    case response(HTTPResponse)
    /// A streamed response (chunked transfer encoding), e.g. Server-Sent Events.
    /// `body` runs on the connection's own thread and writes through the stream
    /// for as long as it likes; when it returns the stream ends cleanly and the
    /// connection closes.
    case stream(status: Int, headers: [HTTPHeader], body: @Sendable (HTTPResponseStream) -> Void)
    /// No answer at all: the connection is reset (a fault a simulator injects).
    case reset
}

/// A request handler: called on the connection's thread, once per request.
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPReply
