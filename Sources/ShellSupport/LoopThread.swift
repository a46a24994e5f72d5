import Glibc

/// An `EventLoop` turned by a thread of its own, for a program whose own threads
/// wait on something else (tests, `bridge-bench`'s and `demo`'s devices): the
/// daemon's loop, on a thread. Other threads hand it work with `perform`, which runs
/// the work on the loop's thread between two turns and waits for it, so what the
/// loop drives (a shell, "loop thread only") is never touched by two threads.
public final class LoopThread: @unchecked Sendable {
    /// The loop; add sources to it with `perform` (or before anything runs on it).
    public let loop: EventLoop
    /// What other threads hand the loop's thread (shared by the callers of `perform`
    /// and `stop` and the loop's thread: the one lock of this hand-off).
    private let inbox = ConditionLock(Inbox())
    /// Set in `init`, joined by `stop` (callers' threads).
    private let thread = ConditionLock<ShellThread?>(nil)

    private struct Inbox {
        var jobs: [() -> Void] = []
        var isStopping = false
        /// The thread has ended: `perform` then runs its work on the caller's thread.
        var isStopped = false
    }

    /// Starts the thread turning a new loop; throws when the system refuses a pipe or a thread.
    public init() throws {
        loop = try EventLoop()
        let started = try ShellThread { [self] in turnUntilStopped() }
        thread.withLock { $0 = started }
    }

    private func turnUntilStopped() {
        while true {
            loop.turn(timeoutMs: -1)
            let (jobs, isStopping) = inbox.withLock { inbox in
                defer { inbox.jobs = [] }
                return (inbox.jobs, inbox.isStopping)
            }
            for job in jobs { job() }
            if isStopping, jobs.isEmpty { break }
        }
        let late = inbox.withLock { inbox in
            defer { inbox.jobs = []; inbox.isStopped = true }
            return inbox.jobs
        }
        for job in late { job() }
    }

    /// Runs `job` on the loop's thread and waits for it (at once when called on it;
    /// on the caller's thread once the loop has stopped: nothing else runs then).
    public func perform<Value>(_ job: @escaping () throws -> Value) throws -> Value {
        if loop.isOnLoopThread { return try job() }
        // The job's outcome, handed from the loop's thread to the caller's.
        let outcome = ConditionLock<Result<Value, any Error>?>(nil)
        let isQueued = inbox.withLock { inbox -> Bool in
            guard !inbox.isStopped else { return false }
            inbox.jobs.append { let result = Result { try job() }; outcome.withLock { $0 = result } }
            return true
        }
        guard isQueued else { return try job() }
        loop.wake()
        guard let result = outcome.wait(timeoutMs: -1, until: { $0 != nil }, then: { $0 }) else {
            preconditionFailure("LoopThread.perform: an unbounded wait ended without the job's outcome")
        }
        return try result.get()
    }

    /// `perform` for work that cannot throw.
    public func perform<Value>(_ job: @escaping () -> Value) -> Value {
        do { return try perform { () throws -> Value in job() } } catch { preconditionFailure("\(error)") }
    }

    /// Lets the loop finish the work already handed to it, then ends the thread and
    /// waits for it (from another thread than the loop's). Stop what the loop drives first.
    public func stop() {
        inbox.withLock { $0.isStopping = true }
        loop.wake()
        let ending = thread.withLock { current in
            defer { current = nil }
            return current
        }
        ending?.join()
    }
}
