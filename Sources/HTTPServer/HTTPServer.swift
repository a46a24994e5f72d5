#if canImport(Glibc)
import Glibc
#endif
import ShellSupport

/// A small HTTP/1.1 server on POSIX sockets: one thread per connection up to a cap,
/// keep-alive, bounded heads and bodies, streamed responses.
public final class HTTPServer: Sendable {
    /// The port the server is bound to (the chosen one when started on port 0).
    public let port: Int
    private let listener: Int32
    private let configuration: HTTPServerConfiguration
    private let handler: HTTPHandler
    private let state = ConditionLock(ServerState())

    private struct ServerState {
        var isStopping = false
        var isAcceptLoopRunning = true
        var connections: [Int: ConnectionSocket] = [:]
        /// Since when each connection has been waiting for a request (absent: not waiting).
        var waitingSinceMs: [Int: Int64] = [:]
        /// Since when each connection's client has not been reading its answers: an
        /// answer blocked in `send` (its buffers are full), or requests sent behind
        /// one another without waiting for the answers (pipelining). Evicted first.
        var notReadingSinceMs: [Int: Int64] = [:]
        var nextConnectionId = 0

        /// Takes the connection to evict out of the table: the one whose client has
        /// not read the longest, else the one that has waited longest for a request.
        mutating func removeLongestIdle() -> ConnectionSocket? {
            guard let connectionId = Self.oldest(notReadingSinceMs) ?? Self.oldest(waitingSinceMs) else { return nil }
            waitingSinceMs[connectionId] = nil
            notReadingSinceMs[connectionId] = nil
            return connections.removeValue(forKey: connectionId)
        }

        private static func oldest(_ sinceMs: [Int: Int64]) -> Int? {
            sinceMs.min(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key
        }
    }

    private init(listener: Int32, port: Int, configuration: HTTPServerConfiguration, handler: @escaping HTTPHandler) {
        self.listener = listener
        self.port = port
        self.configuration = configuration
        self.handler = handler
    }

    /// Binds, listens and starts accepting connections.
    public static func start(configuration: HTTPServerConfiguration,
                             handler: @escaping HTTPHandler) throws(HTTPServerError) -> HTTPServer {
        let bound = try ListeningSocket.open(host: configuration.host, port: configuration.port)
        let server = HTTPServer(listener: bound.descriptor, port: bound.port,
                                configuration: configuration, handler: handler)
        guard ThreadLauncher.start({ server.acceptLoop() }) else {
            _ = close(bound.descriptor)
            throw .systemCall(name: "pthread_create", errno: 0)
        }
        return server
    }

    /// The number of connections open right now.
    public var openConnectionCount: Int { state.withLock { $0.connections.count } }

    /// Stops accepting, closes every connection, and waits (bounded) for their threads.
    public func stop() {
        let sockets = state.withLock { state -> [ConnectionSocket] in
            state.isStopping = true
            return Array(state.connections.values)
        }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        sockets.forEach { $0.shutdownBothWays() }
        waitUntilIdle(timeoutMs: 5_000)
        _ = close(listener)
    }

    private var isStopping: Bool { state.withLock { $0.isStopping } }

    private func waitUntilIdle(timeoutMs: Int) {
        var waitedMs = 0
        while waitedMs < timeoutMs {
            let idle = state.withLock { !$0.isAcceptLoopRunning && $0.connections.isEmpty }
            if idle { return }
            ThreadLauncher.sleep(milliseconds: 2)
            waitedMs += 2
        }
    }

    private func acceptLoop() {
        defer { state.withLock { $0.isAcceptLoopRunning = false } }
        while true {
            let descriptor = accept(listener, nil, nil)
            if isStopping {
                if descriptor >= 0 { _ = close(descriptor) }
                return
            }
            guard descriptor >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno == EMFILE || errno == ENFILE { ThreadLauncher.sleep(milliseconds: 10); continue }
                return
            }
            admit(ConnectionSocket(fileDescriptor: descriptor, readTimeoutMs: configuration.readTimeoutMs,
                                   writeTimeoutMs: configuration.writeTimeoutMs))
        }
    }

    private func admit(_ socket: ConnectionSocket) {
        var evicted: ConnectionSocket?
        let connectionId = state.withLock { state -> Int? in
            guard !state.isStopping else { return nil }
            if state.connections.count >= configuration.maxConnections {
                guard configuration.evictsOldestIdleWhenFull, let longestIdle = state.removeLongestIdle() else { return nil }
                evicted = longestIdle
            }
            state.nextConnectionId += 1
            state.connections[state.nextConnectionId] = socket
            state.waitingSinceMs[state.nextConnectionId] = MonotonicClock.nowMs()
            return state.nextConnectionId
        }
        // Its thread wakes from its read and closes it.
        evicted?.shutdownBothWays()
        guard let connectionId else {
            refuseBusy(socket)
            return
        }
        let started = ThreadLauncher.start { [self] in
            serve(socket, connectionId: connectionId)
            finish(connectionId, socket)
        }
        if !started { finish(connectionId, socket) }
    }

    private func markWaiting(_ connectionId: Int, _ isWaiting: Bool) {
        state.withLock { state in
            guard state.connections[connectionId] != nil else { return }
            state.waitingSinceMs[connectionId] = isWaiting ? MonotonicClock.nowMs() : nil
        }
    }

    /// Marks the client as not reading its answers (keeping since when), or as reading.
    private func markNotReading(_ connectionId: Int, _ isNotReading: Bool) {
        state.withLock { state in
            guard state.connections[connectionId] != nil else { return }
            if !isNotReading {
                state.notReadingSinceMs[connectionId] = nil
            } else if state.notReadingSinceMs[connectionId] == nil {
                state.notReadingSinceMs[connectionId] = MonotonicClock.nowMs()
            }
        }
    }

    private func refuseBusy(_ socket: ConnectionSocket) {
        let response = HTTPResponse.text(503, "too many connections\n")
        _ = socket.send(HTTPResponseWriter.head(of: response, keepAlive: false) + response.body)
        socket.close()
    }

    private func finish(_ connectionId: Int, _ socket: ConnectionSocket) {
        socket.close()
        state.withLock { state in
            if state.connections[connectionId] === socket { state.connections[connectionId] = nil }
            state.waitingSinceMs[connectionId] = nil
            state.notReadingSinceMs[connectionId] = nil
        }
    }

    /// Answers requests on one connection until it closes.
    private func serve(_ socket: ConnectionSocket, connectionId: Int) {
        let reader = HTTPRequestReader(socket: socket, limits: configuration)
        while !isStopping {
            markWaiting(connectionId, true)
            let outcome = reader.next()
            markWaiting(connectionId, false)
            let isPipelining = reader.hasBufferedBytes
            markNotReading(connectionId, isPipelining)
            switch outcome {
            case .closed:
                return
            case .refused(let status, let reason):
                let response = HTTPResponse.text(status, reason + "\n")
                _ = socket.send(HTTPResponseWriter.head(of: response, keepAlive: false) + response.body)
                return
            case .request(let request):
                // An answer blocked in send: its client is not reading either.
                let stalled = { [self] (isStalled: Bool) in markNotReading(connectionId, isStalled || isPipelining) }
                guard answer(request, on: socket, stalled: stalled) else { return }
            }
        }
    }

    /// Runs the handler and writes its reply; true when the connection stays open.
    /// `stalled` hears when the reply waits for the client to read it.
    private func answer(_ request: HTTPRequest, on socket: ConnectionSocket, stalled: (Bool) -> Void) -> Bool {
        switch handler(request) {
        case .response(let response):
            let keepAlive = request.wantsKeepAlive
            let body = request.method == "HEAD" ? [] : response.body
            guard socket.send(HTTPResponseWriter.head(of: response, keepAlive: keepAlive) + body, stalled: stalled) else { return false }
            return keepAlive
        case .stream(let status, let headers, let body):
            let head = HTTPResponseWriter.streamHead(status: status, headers: headers)
            guard socket.send(head, stalled: stalled) else { return false }
            let stream = HTTPResponseStream(socket: socket, isServerStopping: { [self] in isStopping })
            body(stream)
            stream.finish()
            return false
        case .reset:
            socket.reset()
            return false
        }
    }
}
