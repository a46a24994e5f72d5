import Glibc

/// A slow disk on demand, for the fault tests and `bridge-bench` against the
/// real binary (issue 38 item 8): `SWITCHBOARD_FAULT_SYNC_DELAY_MS=400` makes
/// each `fdatasync` of the id file wait that long first (clamped to 0-10,000).
/// Unset (a homeowner's run), the sync is plain `fdatasync`.
enum DiskFault {
    static let syncDelayVariable = "SWITCHBOARD_FAULT_SYNC_DELAY_MS"
    static let maxSyncDelayMs = 10_000

    /// The id file's sync, slowed when the environment asks.
    static func syncData(_ environment: [String: String]) -> @Sendable (Int32) -> Int32 {
        guard let text = environment[syncDelayVariable], let delayMs = Int(text), delayMs > 0 else {
            return { fdatasync($0) }
        }
        let clampedMs = min(delayMs, maxSyncDelayMs)
        return { descriptor in
            var wait = timespec(tv_sec: clampedMs / 1000, tv_nsec: (clampedMs % 1000) * 1_000_000)
            var remaining = timespec()
            while nanosleep(&wait, &remaining) != 0, errno == EINTR { wait = remaining }
            return fdatasync(descriptor)
        }
    }
}
