#if canImport(Glibc)
import Glibc
#endif
import ShellSupport

/// The server's part of the loop: the listening socket and every connection, on
/// the loop's thread only. Accepts up to the cap (evicting the longest idle when
/// the configuration says so, else 503), and hands each connection its readiness
/// and deadlines. (Sendable for `HTTPServer`, which touches it only on the loop's
/// thread or once its own loop's thread has ended.)
final class HTTPServerSource: LoopSource, @unchecked Sendable {
    /// Accepted at most this many connections per pass.
    static let maxAcceptsPerPass = 64
    /// Out of descriptors: accepting pauses this long.
    static let acceptPauseMs: Int64 = 10

    private let listener: Int32
    private let configuration: HTTPServerConfiguration
    private let control: HTTPServerControl
    private let context: HTTPConnectionContext
    private var connections: [Int32: HTTPConnection] = [:]
    private var nextConnectionId = 0
    private var acceptPausedUntilMs: Int64?
    private var isClosed = false
    /// Where the next pass starts among the ready connections (round robin).
    private var passOffset = 0
    /// The pace of requests, when the configuration sets one.
    private var pace: RequestPace?

    init(listener: Int32, configuration: HTTPServerConfiguration, handler: @escaping HTTPHandler,
         control: HTTPServerControl, wake: @escaping @Sendable () -> Void) {
        self.listener = listener
        self.configuration = configuration
        self.control = control
        pace = configuration.maxRequestsPerSecond.map { RequestPace(requestsPerSecond: $0, burst: configuration.requestBurst) }
        context = HTTPConnectionContext(configuration: configuration, handler: handler,
                                        startWorker: { control.startWorker($0) }, wake: wake)
    }

    func loopWants(nowMs: Int64) -> LoopWants {
        guard !isClosed else { return LoopWants() }
        var interests: [LoopInterest] = []
        var deadlineMs: Int64?
        let isPaced = pace.map { !$0.allows(nowMs: nowMs) } ?? false
        if let pace, isPaced { deadlineMs = pace.nextAllowedMs(nowMs: nowMs) }
        if let paused = acceptPausedUntilMs, nowMs < paused {
            deadlineMs = min(deadlineMs ?? paused, paused)
        } else if !isPaced {
            acceptPausedUntilMs = nil
            interests.append(LoopInterest(descriptor: listener, wantsWrite: false))
        }
        for connection in connections.values {
            if var interest = connection.interest() {
                // Over the pace: answers still go out, requests wait unread.
                if isPaced { interest.wantsRead = false }
                if interest.wantsRead || interest.wantsWrite { interests.append(interest) }
            }
            if let due = connection.deadlineMs(nowMs: nowMs) { deadlineMs = min(deadlineMs ?? due, due) }
        }
        return LoopWants(interests: interests, deadlineMs: deadlineMs)
    }

    func loopService(ready: [LoopReadiness], nowMs: Int64) {
        guard !isClosed, !control.isStopping else { return }
        var readiness: [Int32: LoopReadiness] = [:]
        for item in ready { readiness[item.descriptor] = item }
        let all = Array(connections.values).sorted { $0.id < $1.id }
        let budget = configuration.maxReadyConnectionsPerPass
        var servedReady = 0
        let start = all.isEmpty ? 0 : passOffset % all.count
        for index in 0..<all.count {
            let connection = all[(start + index) % all.count]
            var ready = readiness[connection.descriptor]
            if var taken = ready, taken.isReadable {
                // Past the pass's budget, or the pace, a request waits for a later
                // pass (poll reports it again); answers still flush, deadlines are kept.
                if servedReady >= budget || !(pace?.allows(nowMs: nowMs) ?? true) {
                    taken.isReadable = false
                    ready = taken.isWritable ? taken : nil
                } else {
                    servedReady += 1
                    pace?.take(nowMs: nowMs)
                }
            }
            connection.service(ready, nowMs: nowMs)
            if connection.isClosed { connections[connection.descriptor] = nil }
        }
        passOffset = all.isEmpty ? 0 : (start + servedReady) % all.count
        if readiness[listener] != nil, pace?.allows(nowMs: nowMs) ?? true { acceptConnections(nowMs: nowMs) }
        control.setOpenConnectionCount(connections.count)
    }

    /// Closes the listener and every connection (on the loop's thread, or once it no
    /// longer turns).
    func closeAll() {
        guard !isClosed else { return }
        isClosed = true
        _ = close(listener)
        for connection in connections.values { connection.close() }
        connections = [:]
        control.setOpenConnectionCount(0)
    }

    private func acceptConnections(nowMs: Int64) {
        for _ in 0..<Self.maxAcceptsPerPass {
            // A new connection's first request is read at once: it counts against the pace.
            guard pace?.allows(nowMs: nowMs) ?? true else { return }
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno == EMFILE || errno == ENFILE { acceptPausedUntilMs = nowMs + Self.acceptPauseMs }
                return
            }
            pace?.take(nowMs: nowMs)
            admit(ConnectionSocket(fileDescriptor: descriptor), nowMs: nowMs)
        }
    }

    private func admit(_ socket: ConnectionSocket, nowMs: Int64) {
        if connections.count >= configuration.maxConnections {
            guard configuration.evictsOldestIdleWhenFull, let longestIdle = longestIdle() else {
                HTTPConnection.refuseBusy(socket)
                return
            }
            longestIdle.close()
            connections[longestIdle.descriptor] = nil
        }
        nextConnectionId += 1
        let connection = HTTPConnection(id: nextConnectionId, socket: socket, context: context, nowMs: nowMs)
        connections[socket.descriptor] = connection
        // Bytes that came with the connection are read at once.
        connection.service(LoopReadiness(descriptor: socket.descriptor, isReadable: true, isWritable: false), nowMs: nowMs)
        if connection.isClosed { connections[socket.descriptor] = nil }
    }

    /// The connection whose client has not read the longest, else the one that has
    /// waited longest for a request.
    private func longestIdle() -> HTTPConnection? {
        func oldest(_ sinceMs: (HTTPConnection) -> Int64?) -> HTTPConnection? {
            connections.values.compactMap { connection in sinceMs(connection).map { ($0, connection.id, connection) } }
                .min { ($0.0, $0.1) < ($1.0, $1.1) }?.2
        }
        return oldest(\.notReadingSinceMs) ?? oldest(\.waitingSinceMs)
    }
}
