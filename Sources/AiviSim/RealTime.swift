#if canImport(Glibc)
import Glibc
#endif

/// Real-time waits for the simulator's own loops (never the simulated clock).
enum RealTime {
    /// Sleeps the calling thread for `milliseconds`.
    static func sleep(milliseconds: Int) {
        var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
