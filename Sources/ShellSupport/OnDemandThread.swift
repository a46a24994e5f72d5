/// A worker thread a shell starts on first use and joins when it stops (the id
/// store's syncing thread, the status page's render thread): the one way to hold
/// such a thread, so an idle daemon runs none.
public final class OnDemandThread: @unchecked Sendable {
    private let thread = ConditionLock<ShellThread?>(nil)

    public init() {}

    /// Runs `body` on a new thread unless one was started already; false when no
    /// thread can be had.
    public func startIfNeeded(_ body: @escaping @Sendable () -> Void) -> Bool {
        thread.withLock { thread in
            if thread != nil { return true }
            thread = try? ShellThread(body)
            return thread != nil
        }
    }

    /// Waits for the thread, if one was started, to end (its body must be told to
    /// end first), then forgets it.
    public func join() {
        thread.withLock { $0 }?.join()
        thread.withLock { $0 = nil }
    }
}
