import Glibc
import ShellSupport

/// Samples the bridge's resources every `intervalMs` on its own thread:
/// VmRSS, RssAnon, open file descriptors, threads, and the id file's size,
/// each tagged with the bridge's lifetime (a restart starts a new one).
final class ResourceSampler: Sendable {
    struct Sample: Sendable {
        var lifetime: Int
        var atUs: Int64
        var rssKB: Int64
        var anonKB: Int64
        var fds: Int
        var threads: Int
        var idFileBytes: Int64
    }

    struct State {
        var target: (pid: pid_t, lifetime: Int)?
        var samples: [Sample] = []
        var isStopped = false
    }

    /// The most samples kept (a 24-hour run at 2 s).
    static let maxSamples = 50_000

    let intervalMs: Int
    let idFilePath: String
    private let state = ConditionLock(State())
    private let thread = ConditionLock<ShellThread?>(nil)

    init(intervalMs: Int, idFilePath: String) throws {
        self.intervalMs = intervalMs
        self.idFilePath = idFilePath
        let started = try ShellThread { [self] in loop() }
        thread.withLock { $0 = started }
    }

    /// The process to watch from now on (nil while the bridge is down).
    func watch(pid: pid_t?, lifetime: Int) {
        state.withLock { $0.target = pid.map { ($0, lifetime) } }
    }

    func stop() {
        state.withLock { $0.isStopped = true }
        let running = thread.withLock { current -> ShellThread? in
            defer { current = nil }
            return current
        }
        running?.join()
    }

    var samples: [Sample] { state.withLock { $0.samples } }

    /// One reading of `pid` now.
    static func read(pid: pid_t, lifetime: Int, idFilePath: String) -> Sample? {
        let stats = ProcessStats(pid: pid)
        guard let rss = stats.statusKilobytes("VmRSS"), let anon = stats.statusKilobytes("RssAnon") else { return nil }
        let fds = ProcFile.entries(of: "/proc/\(pid)/fd").count
        return Sample(lifetime: lifetime, atUs: MonotonicClock.nowUs(), rssKB: rss, anonKB: anon, fds: fds,
                      threads: stats.threadCount(), idFileBytes: ProcFile.size(of: idFilePath) ?? 0)
    }

    private func loop() {
        while true {
            let target = state.withLock { $0.isStopped ? nil : $0.target }
            if let target, let sample = Self.read(pid: target.pid, lifetime: target.lifetime, idFilePath: idFilePath) {
                state.withLock { if $0.samples.count < Self.maxSamples { $0.samples.append(sample) } }
            }
            if state.wait(timeoutMs: intervalMs, until: { $0.isStopped }) { return }
        }
    }
}
