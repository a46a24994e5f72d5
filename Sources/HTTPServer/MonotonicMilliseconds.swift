#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock in milliseconds, for the server's deadlines.
enum MonotonicMilliseconds {
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
    }
}
