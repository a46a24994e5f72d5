import Foundation
import ShellSupport
import Testing

@Suite("ConditionLock: waits with a deadline")
struct ConditionLockTests {
    /// A zero timeout takes the state as it is at once (the daemon takes its inbox this
    /// way after every loop turn: no clock read, no futex call; strace counted one
    /// futex per press and per state message before).
    @Test func aZeroTimeoutTakesTheStateAsItIs() {
        let lock = ConditionLock([Int]())
        let taken = lock.wait(timeoutMs: 0, until: { !$0.isEmpty }) { items -> [Int] in
            defer { items = [] }
            return items
        }
        #expect(taken.isEmpty)
        lock.withLock { $0.append(7) }
        #expect(lock.wait(timeoutMs: 0, until: { !$0.isEmpty }))
        #expect(lock.wait(timeoutMs: 0, until: { $0.isEmpty }) == false)
    }

    /// A positive timeout still waits for another thread's change.
    @Test func aTimeoutWaitsForAnotherThreadsChange() throws {
        let lock = ConditionLock(false)
        let thread = Thread { lock.withLock { $0 = true } }
        thread.start()
        #expect(lock.wait(timeoutMs: 10_000, until: { $0 }))
    }
}
