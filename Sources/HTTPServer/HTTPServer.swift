#if canImport(Glibc)
import Glibc
#endif
import ShellSupport

/// A small HTTP/1.1 server on non-blocking POSIX sockets, driven by an `EventLoop`:
/// the listening socket and every connection are one `LoopSource`, up to a cap,
/// keep-alive, bounded heads and bodies, deadlines from the loop's. On the
/// caller's loop (the daemon's status view: no thread at all), or on the loop of a
/// `LoopThread` of its own. A handler runs on the loop's thread; a streamed answer's
/// body, and an answer that must wait (`.deferred`), run on a worker thread.
public final class HTTPServer: Sendable {
    /// The port the server is bound to (the chosen one when started on port 0).
    public let port: Int
    private let source: HTTPServerSource
    private let loop: EventLoop
    /// The thread turning a loop of the server's own (nil on the caller's loop).
    private let ownThread: LoopThread?
    private let control: HTTPServerControl

    private init(port: Int, source: HTTPServerSource, loop: EventLoop, control: HTTPServerControl, ownThread: LoopThread?) {
        self.port = port
        self.source = source
        self.loop = loop
        self.control = control
        self.ownThread = ownThread
    }

    /// Binds, listens and serves on the loop of a `LoopThread` of its own.
    public static func start(configuration: HTTPServerConfiguration,
                             handler: @escaping HTTPHandler) throws(HTTPServerError) -> HTTPServer {
        let thread: LoopThread
        do {
            thread = try LoopThread()
        } catch let error as EventLoopError {
            throw .systemCall(name: error.operation, errno: error.errorNumber)
        } catch {
            throw .systemCall(name: "pthread_create", errno: (error as? ShellThreadError)?.errorNumber ?? 0)
        }
        do {
            return try thread.perform { try bind(configuration: configuration, handler: handler, on: thread.loop, ownThread: thread) }
        } catch {
            thread.stop()
            throw (error as? HTTPServerError) ?? .systemCall(name: "start", errno: 0)
        }
    }

    /// Binds, listens and serves on `loop`, which the caller turns (every call but
    /// `openConnectionCount` then comes from the loop's thread); serving starts at
    /// its next turn.
    public static func start(configuration: HTTPServerConfiguration, handler: @escaping HTTPHandler,
                             on loop: EventLoop) throws(HTTPServerError) -> HTTPServer {
        try bind(configuration: configuration, handler: handler, on: loop, ownThread: nil)
    }

    private static func bind(configuration: HTTPServerConfiguration, handler: @escaping HTTPHandler,
                             on loop: EventLoop, ownThread: LoopThread?) throws(HTTPServerError) -> HTTPServer {
        let bound = try ListeningSocket.open(host: configuration.host, port: configuration.port)
        let control = HTTPServerControl()
        let source = HTTPServerSource(listener: bound.descriptor, configuration: configuration, handler: handler,
                                      control: control, wake: { loop.wake() })
        loop.add(source)
        return HTTPServer(port: bound.port, source: source, loop: loop, control: control, ownThread: ownThread)
    }

    /// The number of connections open right now.
    public var openConnectionCount: Int { control.openConnectionCount }

    /// Stops accepting, closes every connection, and waits (bounded) for workers.
    /// On the caller's loop: call it on the loop's thread; on its own, the closing is
    /// handed to that loop, whose thread then ends.
    public func stop() {
        guard !control.markStopping() else { return }
        let closeAll = { [loop, source] in
            loop.remove(source)
            source.closeAll()
        }
        if let ownThread {
            ownThread.perform(closeAll)
            ownThread.stop()
        } else {
            closeAll()
        }
        control.waitForWorkers(timeoutMs: 5_000)
    }
}

/// What other threads see of a server: stopping, its connection count, its workers.
final class HTTPServerControl: Sendable {
    private struct State {
        var isStopping = false
        var openConnectionCount = 0
        var workerCount = 0
    }

    private let state = ConditionLock(State())

    var isStopping: Bool { state.withLock { $0.isStopping } }
    var openConnectionCount: Int { state.withLock { $0.openConnectionCount } }

    /// Marks the server stopping; true when it already was.
    func markStopping() -> Bool {
        state.withLock { state in
            defer { state.isStopping = true }
            return state.isStopping
        }
    }

    func setOpenConnectionCount(_ count: Int) { state.withLock { $0.openConnectionCount = count } }

    /// Runs `work` on a detached worker thread, counted; false when none could start.
    func startWorker(_ work: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { $0.workerCount += 1 }
        do {
            let thread = try ShellThread { [self] in
                work()
                state.withLock { $0.workerCount -= 1 }
            }
            thread.detach()
            return true
        } catch {
            state.withLock { $0.workerCount -= 1 }
            return false
        }
    }

    func waitForWorkers(timeoutMs: Int) {
        state.wait(timeoutMs: timeoutMs) { $0.workerCount == 0 }
    }
}
