import Glibc
import ShellSupport
import Testing

/// SIGTERM, SIGINT and SIGHUP arrive through a self-pipe on the one loop (issue 23):
/// no thread of their own, handled on the loop's thread.
@Suite("Signals on the event loop", .serialized)
struct SignalSourceTests {
    /// Blocks the handled signals on this thread (as `main` does for the daemon), runs
    /// `body`, restores the mask: a signal raised here is pending, never delivered.
    private func withHandledSignalsBlocked(_ body: () throws -> Void) rethrows {
        var previous = sigset_t()
        var set = sigset_t()
        sigemptyset(&set)
        for signal in SignalSource.handledSignals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try body()
    }

    @Test func aRaisedSignalIsHandedToTheSourceOnTheLoopsThreadWithItsNumber() throws {
        try withHandledSignalsBlocked {
            let loop = try EventLoop()
            let loopThread = pthread_self()
            var received: [Int32] = []
            var onLoopThread: [Bool] = []
            loop.add(try SignalSource { signal in
                received.append(signal)
                onLoopThread.append(pthread_equal(pthread_self(), loopThread) != 0)
            })
            raise(SIGHUP)
            raise(SIGTERM)
            // Both are pending before the first wait: one or two turns hand them over.
            for _ in 0..<4 where received.count < 2 { loop.turn(timeoutMs: 2_000) }
            #expect(received.sorted() == [SIGTERM, SIGHUP].sorted())
            #expect(onLoopThread == [true, true])
        }
    }

    @Test func withNoSignalTheSourceIsNotCalled() throws {
        try withHandledSignalsBlocked {
            let loop = try EventLoop()
            var received: [Int32] = []
            loop.add(try SignalSource { received.append($0) })
            loop.turn(timeoutMs: 0)
            #expect(received.isEmpty)
        }
    }
}
