import Glibc
import AiviSim
import ShellSupport

extension AiviSimulator {
    /// Waits up to `timeoutMs` for an open event stream, polling every 5 ms.
    func waitForEventStream(timeoutMs: Int) -> Bool {
        let deadlineMs = MonotonicClock.nowMs() + Int64(timeoutMs)
        while openEventStreamCount == 0 {
            guard MonotonicClock.nowMs() < deadlineMs else { return false }
            BenchPause.milliseconds(5)
        }
        return true
    }
}

/// A real-time pause of the bench's own thread (pacing, never synchronisation).
enum BenchPause {
    static func microseconds(_ us: Int64) {
        guard us > 0 else { return }
        var request = Glibc.timespec(tv_sec: Int(us / 1_000_000), tv_nsec: Int(us % 1_000_000) * 1000)
        var remaining = Glibc.timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    static func milliseconds(_ ms: Int) { microseconds(Int64(ms) * 1000) }
}
