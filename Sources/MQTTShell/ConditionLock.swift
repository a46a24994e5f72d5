import Glibc

/// A mutex with one condition variable (monotonic clock), guarding a value of type `State`.
///
/// Used by the shell to hand state between the caller's threads and the loop thread,
/// and to wait for a condition with a deadline (never an unbounded sleep).
final class ConditionLock<State>: @unchecked Sendable {
    private var state: State
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(_ initialState: State) {
        state = initialState
        pthread_mutex_init(mutex, nil)
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
    }

    /// Runs `body` with the lock held and wakes every waiter afterwards.
    @discardableResult
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&state)
    }

    /// Waits until `isDone` holds or `timeoutMs` has passed; returns whether it holds.
    /// A negative timeout waits without a deadline.
    @discardableResult
    func wait(timeoutMs: Int, until isDone: (State) -> Bool) -> Bool {
        let deadline = Self.deadline(afterMs: timeoutMs)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isDone(state) {
            if timeoutMs < 0 {
                pthread_cond_wait(condition, mutex)
            } else {
                var target = deadline
                if pthread_cond_timedwait(condition, mutex, &target) == ETIMEDOUT {
                    return isDone(state)
                }
            }
        }
        return true
    }

    private static func deadline(afterMs milliseconds: Int) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let clampedMs = max(0, milliseconds)
        let nanoseconds = Int(now.tv_nsec) + (clampedMs % 1000) * 1_000_000
        return timespec(
            tv_sec: now.tv_sec + clampedMs / 1000 + nanoseconds / 1_000_000_000,
            tv_nsec: nanoseconds % 1_000_000_000
        )
    }
}
