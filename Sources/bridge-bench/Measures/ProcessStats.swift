import Glibc

/// What /proc says about the bridge process.
struct ProcessStats: Sendable {
    let pid: pid_t

    /// Clock ticks per second of /proc's CPU times.
    static let ticksPerSecond = Int64(sysconf(Int32(_SC_CLK_TCK)))

    /// User plus system CPU time of the whole process (all threads, finished ones
    /// included), microseconds, from /proc/PID/stat (tick resolution).
    func cpuTimeUs() -> Int64? {
        cpuTimesUs().map { $0.userUs + $0.kernelUs }
    }

    /// User and kernel (system) CPU time of the whole process, microseconds, from /proc/PID/stat (tick resolution).
    func cpuTimesUs() -> (userUs: Int64, kernelUs: Int64)? {
        // utime is field 14, stime 15.
        guard let fields = statFields(), fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return nil }
        return (user * 1_000_000 / Self.ticksPerSecond, system * 1_000_000 / Self.ticksPerSecond)
    }

    /// Minor page faults of the whole process (a page first touched, or touched
    /// again after it went back to the system), from /proc/PID/stat (field 10).
    func minorFaults() -> Int64? {
        guard let fields = statFields(), fields.count > 7 else { return nil }
        return Int64(fields[7])
    }

    /// The fields of /proc/PID/stat after the command's `)`: field 3 (state) is at 0.
    private func statFields() -> [Substring]? {
        guard let text = ProcFile.read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// The calling thread's CPU time, nanoseconds, from its CPU clock: for a thread
    /// measuring itself, whose schedstat is brought up to date only when it is
    /// descheduled or ticked.
    static func callingThreadCPUTimeNs() -> Int64? {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return nil }
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Time on a CPU of the live threads, nanoseconds, summed from
    /// /proc/PID/task/*/schedstat (exact, unlike the 10 ms ticks of `stat`);
    /// nil when the kernel does not keep schedstat.
    func threadRunTimeNs() -> Int64? {
        let tasks = ProcFile.entries(of: "/proc/\(pid)/task")
        var totalNs: Int64 = 0
        for task in tasks {
            guard let text = ProcFile.read("/proc/\(pid)/task/\(task)/schedstat"),
                  let first = text.split(separator: " ").first, let runNs = Int64(first) else { return nil }
            totalNs += runNs
        }
        return tasks.isEmpty ? nil : totalNs
    }

    /// A `kB` line of /proc/PID/status (e.g. `VmHWM`), in kibibytes.
    func statusKilobytes(_ key: String) -> Int64? {
        guard let text = ProcFile.read("/proc/\(pid)/status") else { return nil }
        return Self.number(after: key + ":", in: text)
    }

    /// Voluntary plus nonvoluntary context switches, summed over the live threads.
    func contextSwitches() -> Int64 {
        ProcFile.entries(of: "/proc/\(pid)/task").reduce(0) { total, task in
            guard let text = ProcFile.read("/proc/\(pid)/task/\(task)/status") else { return total }
            let voluntary = Self.number(after: "\nvoluntary_ctxt_switches:", in: text) ?? 0
            let nonvoluntary = Self.number(after: "\nnonvoluntary_ctxt_switches:", in: text) ?? 0
            return total + voluntary + nonvoluntary
        }
    }

    /// How many threads the process has now.
    func threadCount() -> Int { ProcFile.entries(of: "/proc/\(pid)/task").count }

    /// The first integer after `key` in `text`.
    static func number(after key: String, in text: String) -> Int64? {
        guard let range = text.firstRange(of: key) else { return nil }
        let digits = text[range.upperBound...].drop { $0 == " " || $0 == "\t" }.prefix { $0.isNumber }
        return Int64(digits)
    }
}
