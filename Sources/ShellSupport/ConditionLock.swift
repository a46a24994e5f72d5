import Glibc

/// A mutex with one condition variable (monotonic clock), guarding a value of
/// type `State`: how the shells hand state between threads, and wait for a
/// condition with a deadline (never an unbounded sleep).
public final class ConditionLock<State>: @unchecked Sendable {
    /// The guarded value, behind a pointer: the mutex is what makes each access
    /// exclusive, so Swift's dynamic exclusivity check of a class's stored
    /// property (a runtime call and an access record each time, ~50 times a
    /// press in the daemon) would only repeat it.
    private let state: UnsafeMutablePointer<State>
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Threads in `wait` (guarded by the mutex): with none, `withLock` wakes nobody
    /// (no `pthread_cond_broadcast` per access, ~40 a press in the daemon).
    private let waiterCount = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    public init(_ initialState: State) {
        state = .allocate(capacity: 1)
        state.initialize(to: initialState)
        pthread_mutex_init(mutex, nil)
        waiterCount.initialize(to: 0)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
        waiterCount.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with the lock held and wakes every waiter afterwards. (A thread
    /// about to wait holds the mutex while it looks at the state, so one that is not
    /// counted yet sees this change before it sleeps.)
    @discardableResult
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            if waiterCount.pointee > 0 { pthread_cond_broadcast(condition) }
            pthread_mutex_unlock(mutex)
        }
        return try body(&state.pointee)
    }

    /// Waits until `isDone` holds or `timeoutMs` has passed, then runs `body` with
    /// the lock still held. A negative timeout waits without a deadline; a zero one
    /// does not wait at all (no clock read, no futex call: the daemon's loop takes
    /// its inbox this way after every turn).
    public func wait<Result>(timeoutMs: Int, until isDone: (State) -> Bool, then body: (inout State) -> Result) -> Result {
        guard timeoutMs != 0 else {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body(&state.pointee)
        }
        let deadline = MonotonicClock.timespec(afterMs: timeoutMs)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isDone(state.pointee) {
            waiterCount.pointee += 1
            defer { waiterCount.pointee -= 1 }
            if timeoutMs < 0 {
                pthread_cond_wait(condition, mutex)
            } else {
                var target = deadline
                if pthread_cond_timedwait(condition, mutex, &target) == ETIMEDOUT { break }
            }
        }
        return body(&state.pointee)
    }

    /// Waits until `isDone` holds or `timeoutMs` has passed; returns whether it holds.
    @discardableResult
    public func wait(timeoutMs: Int, until isDone: (State) -> Bool) -> Bool {
        wait(timeoutMs: timeoutMs, until: isDone) { isDone($0) }
    }
}
