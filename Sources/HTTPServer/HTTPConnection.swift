import ShellSupport

/// What every connection of one server shares: its bounds, its handler, and how a
/// worker thread is started for an answer that runs off the loop.
struct HTTPConnectionContext {
    let configuration: HTTPServerConfiguration
    let handler: HTTPHandler
    /// Starts `work` on a worker thread; false when none could start.
    let startWorker: (@escaping @Sendable () -> Void) -> Bool
    /// Wakes the loop (from a worker).
    let wake: @Sendable () -> Void
}

/// One connection of the server, on the loop's thread only: reads and parses
/// requests as bytes arrive, answers them (on the loop, or through an outbox when
/// the answer runs off it: a stream's body, an answer that must wait), writes
/// without blocking, and keeps its deadlines (read, head, write).
final class HTTPConnection {
    private enum Phase {
        /// Reading requests, answering them on the loop.
        case reading
        /// A worker writes the answer through this outbox.
        case offLoop(HTTPConnectionOutbox)
        /// Writing what is left, then closing.
        case closing
        case closed
    }

    /// One read at most this many bytes.
    static let receiveChunkBytes = 16 * 1024
    /// At most this many reads per pass, and requests answered per pass.
    static let maxReadsPerPass = 4
    static let maxRequestsPerPass = 16
    /// Bytes the client may send ahead of the answers (pipelining) before it is not read.
    static let maxPipelinedBytes = 64 * 1024

    let id: Int
    private let socket: ConnectionSocket
    private let context: HTTPConnectionContext
    private var parser: HTTPRequestParser
    private var phase = Phase.reading
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var isInputEnded = false
    /// The parser asked for more bytes and none came since.
    private var needsInput = true
    private var lastReadMs: Int64
    private var lastWriteProgressMs: Int64
    /// Since when the connection has waited for a request (absent: not waiting);
    /// the head's deadline counts from it.
    private(set) var waitingSinceMs: Int64?
    /// Since when its client has not read its answers: a write the socket would not
    /// take, or requests sent behind one another (pipelining). Evicted first.
    private(set) var notReadingSinceMs: Int64?

    init(id: Int, socket: ConnectionSocket, context: HTTPConnectionContext, nowMs: Int64) {
        self.id = id
        self.socket = socket
        self.context = context
        parser = HTTPRequestParser(limits: context.configuration)
        lastReadMs = nowMs
        lastWriteProgressMs = nowMs
        waitingSinceMs = nowMs
    }

    var descriptor: Int32 { socket.descriptor }
    var isClosed: Bool { if case .closed = phase { return true } else { return false } }
    private var hasOutput: Bool { outputOffset < output.count }
    private var configuration: HTTPServerConfiguration { context.configuration }

    /// What the loop watches for this connection now (nil: nothing, a worker will wake it).
    func interest() -> LoopInterest? {
        let wantsRead: Bool
        switch phase {
        case .closed: return nil
        case .closing: wantsRead = false
        case .reading: wantsRead = !hasOutput && needsInput && !isInputEnded
        case .offLoop: wantsRead = !isInputEnded && parser.bufferedByteCount < Self.maxPipelinedBytes
        }
        guard wantsRead || hasOutput else { return nil }
        return LoopInterest(descriptor: socket.descriptor, wantsWrite: hasOutput, wantsRead: wantsRead)
    }

    /// When the connection must be looked at anyway: now when requests wait in the
    /// buffer or a worker wrote something, else its timeout.
    func deadlineMs(nowMs: Int64) -> Int64? {
        needsLookNow ? nowMs : timeoutMs()
    }

    private var needsLookNow: Bool {
        guard !hasOutput else { return false }
        switch phase {
        case .reading: return !needsInput || isInputEnded
        case .offLoop(let outbox): return outbox.hasNews
        case .closing, .closed: return false
        }
    }

    /// When the connection closes unless something happens: a write or read timeout,
    /// the head's deadline.
    private func timeoutMs() -> Int64? {
        if hasOutput { return lastWriteProgressMs + Int64(configuration.writeTimeoutMs) }
        guard case .reading = phase else { return nil }
        let readDeadlineMs = lastReadMs + Int64(configuration.readTimeoutMs)
        guard parser.isReadingHead, let waitingSinceMs else { return readDeadlineMs }
        return min(readDeadlineMs, waitingSinceMs + Int64(max(0, configuration.headTimeoutMs)))
    }

    /// After a wait: reads, writes, takes what a worker wrote, answers what is complete.
    func service(_ ready: LoopReadiness?, nowMs: Int64) {
        if let ready, ready.isWritable { flush(nowMs: nowMs) }
        if let ready, ready.isReadable, !isClosed { receive(nowMs: nowMs) }
        takeFromWorker(nowMs: nowMs)
        if !isClosed, !needsLookNow, let timeout = timeoutMs(), nowMs >= timeout {
            close()
            return
        }
        answerRequests(nowMs: nowMs)
    }

    /// Closes the connection (and tells a worker its answer is no longer wanted).
    func close() {
        if case .offLoop(let outbox) = phase { outbox.fail() }
        phase = .closed
        socket.close()
    }

    private func receive(nowMs: Int64) {
        var buffer = [UInt8](repeating: 0, count: Self.receiveChunkBytes)
        for _ in 0..<Self.maxReadsPerPass {
            switch socket.receive(into: &buffer) {
            case .bytes(let bytes):
                lastReadMs = nowMs
                needsInput = false
                parser.append(bytes)
                if bytes.count < buffer.count || parser.bufferedByteCount >= Self.maxPipelinedBytes { return }
            case .wouldBlock:
                return
            case .ended:
                isInputEnded = true
                // A stream has no one left to read it.
                if case .offLoop(let outbox) = phase { outbox.endStreamForGoneClient() }
                return
            }
        }
    }

    private func flush(nowMs: Int64) {
        while hasOutput {
            switch socket.send(output[outputOffset...]) {
            case .bytes(let count) where count > 0:
                outputOffset += count
                lastWriteProgressMs = nowMs
            case .bytes, .wouldBlock:
                if notReadingSinceMs == nil { notReadingSinceMs = nowMs }
                return
            case .failed:
                close()
                return
            }
        }
        output = []
        outputOffset = 0
        notReadingSinceMs = parser.hasBufferedBytes ? (notReadingSinceMs ?? nowMs) : nil
        switch phase {
        case .closing: close()
        case .reading: beginWaiting(nowMs: nowMs)
        case .offLoop, .closed: break
        }
    }

    private func beginWaiting(nowMs: Int64) {
        guard waitingSinceMs == nil else { return }
        waitingSinceMs = nowMs
        lastReadMs = nowMs
    }

    private func queue(_ bytes: [UInt8], nowMs: Int64) {
        if !hasOutput { lastWriteProgressMs = nowMs }
        if outputOffset > 0 && outputOffset == output.count {
            output = []
            outputOffset = 0
        }
        output += bytes
        flush(nowMs: nowMs)
    }

    /// Moves what a worker wrote to the socket once what went before is written (so
    /// at most one outbox's bound waits here), and follows how its answer ended.
    private func takeFromWorker(nowMs: Int64) {
        guard case .offLoop(let outbox) = phase, !hasOutput else { return }
        if outbox.isFailed {
            close()
            return
        }
        let taken = outbox.take()
        if !taken.bytes.isEmpty { queue(taken.bytes, nowMs: nowMs) }
        guard let ending = taken.ending, !isClosed else { return }
        switch ending {
        case .reset:
            phase = .closed
            socket.reset()
        case .complete(let keepAlive):
            phase = keepAlive ? .reading : .closing
            if !hasOutput { flush(nowMs: nowMs) }
        }
    }

    private func answerRequests(nowMs: Int64) {
        for _ in 0..<Self.maxRequestsPerPass {
            guard case .reading = phase, !hasOutput else { return }
            switch parser.next(inputEnded: isInputEnded) {
            case .needsMore:
                needsInput = true
                return
            case .closed:
                close()
                return
            case .continueExpected:
                queue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), nowMs: nowMs)
            case .refused(let status, let reason):
                let response = HTTPResponse.text(status, reason + "\n")
                phase = .closing
                queue(HTTPResponseWriter.head(of: response, keepAlive: false) + response.body, nowMs: nowMs)
                return
            case .request(let request):
                waitingSinceMs = nil
                if parser.hasBufferedBytes, notReadingSinceMs == nil { notReadingSinceMs = nowMs }
                answer(request, nowMs: nowMs)
            }
        }
    }

    private func answer(_ request: HTTPRequest, nowMs: Int64) {
        switch context.handler(request) {
        case .response(let response):
            let keepAlive = request.wantsKeepAlive
            if !keepAlive { phase = .closing }
            queue(Self.bytes(of: response, for: request, keepAlive: keepAlive), nowMs: nowMs)
        case .stream(let status, let headers, let body):
            let outbox = makeOutbox()
            phase = .offLoop(outbox)
            queue(HTTPResponseWriter.streamHead(status: status, headers: headers), nowMs: nowMs)
            let stream = HTTPResponseStream(outbox: outbox)
            if !context.startWorker({ body(stream); stream.finish() }) { close() }
        case .reset:
            phase = .closed
            socket.reset()
        case .deferred(let work):
            answerOffLoop(request, work)
        }
    }

    /// The answer must wait: `work` runs on a worker, which writes its reply (a
    /// stream's too) through the outbox.
    private func answerOffLoop(_ request: HTTPRequest, _ work: @escaping @Sendable () -> HTTPReply) {
        let outbox = makeOutbox()
        phase = .offLoop(outbox)
        let started = context.startWorker {
            var reply = work()
            while case .deferred(let next) = reply { reply = next() }
            switch reply {
            case .response(let response):
                let keepAlive = request.wantsKeepAlive
                outbox.end(with: Self.bytes(of: response, for: request, keepAlive: keepAlive), .complete(keepAlive: keepAlive))
            case .stream(let status, let headers, let body):
                guard outbox.stream(HTTPResponseWriter.streamHead(status: status, headers: headers)) else { return }
                let stream = HTTPResponseStream(outbox: outbox)
                body(stream)
                stream.finish()
            case .reset, .deferred:
                outbox.end(with: [], .reset)
            }
        }
        if !started { close() }
    }

    private func makeOutbox() -> HTTPConnectionOutbox {
        HTTPConnectionOutbox(maxStreamedBytes: configuration.maxStreamBufferedBytes, wake: context.wake)
    }

    private static func bytes(of response: HTTPResponse, for request: HTTPRequest, keepAlive: Bool) -> [UInt8] {
        let body = request.method == "HEAD" ? [] : response.body
        return HTTPResponseWriter.head(of: response, keepAlive: keepAlive) + body
    }

    /// Answers 503 and closes: every connection is taken.
    static func refuseBusy(_ socket: ConnectionSocket) {
        let response = HTTPResponse.text(503, "too many connections\n")
        _ = socket.send(ArraySlice(HTTPResponseWriter.head(of: response, keepAlive: false) + response.body))
        socket.close()
    }
}
