import Glibc

/// A CPU budget for the bridge alone, as a cgroup with a CFS quota: a Pi's
/// slower core emulated as a share of one core here. cgroup v1's `cpu`
/// controller (`cpu.cfs_period_us` / `cpu.cfs_quota_us`) or v2's `cpu.max`.
struct CPUCgroup: BridgeWrapper {
    /// The quota's period, 10 ms (the CFS default is 100 ms: too coarse for a
    /// press that needs a few ms of CPU, it would wait out whole periods).
    static let periodUs = 10_000

    /// The cgroup's directory.
    let path: String
    /// The version in use, for the table ("v1 cpu" or "v2 cpu.max").
    let kind: String
    let percent: Int

    /// The file a process writes its PID into to join.
    var procsFile: String { path + "/cgroup.procs" }

    /// Makes a cgroup limited to `percent` % of one core; the reason when
    /// neither controller can be written here.
    static func create(percent: Int) -> Result<CPUCgroup, BenchFailure> {
        let name = "bridge-bench-\(getpid())"
        let quotaUs = periodUs * percent / 100
        let v1 = "/sys/fs/cgroup/cpu"
        if access(v1 + "/cpu.cfs_quota_us", F_OK) == 0, makeDirectory(v1 + "/" + name) {
            let path = v1 + "/" + name
            if write("\(periodUs)", to: path + "/cpu.cfs_period_us"), write("\(quotaUs)", to: path + "/cpu.cfs_quota_us") {
                return .success(CPUCgroup(path: path, kind: "cgroup v1 cpu", percent: percent))
            }
            rmdir(path)
        }
        for root in ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"] where access(root + "/cgroup.subtree_control", F_OK) == 0 {
            let enabled = ProcFile.read(root + "/cgroup.subtree_control") ?? ""
            guard enabled.split(whereSeparator: { $0 == " " || $0 == "\n" }).contains("cpu")
                    || write("+cpu", to: root + "/cgroup.subtree_control") else { continue }
            let path = root + "/" + name
            guard makeDirectory(path) else { continue }
            if write("\(quotaUs) \(periodUs)", to: path + "/cpu.max") {
                return .success(CPUCgroup(path: path, kind: "cgroup v2 cpu.max", percent: percent))
            }
            rmdir(path)
        }
        return .failure(BenchFailure("no writable cgroup CPU controller (v1 /sys/fs/cgroup/cpu, or v2 cpu.max with the cpu controller delegated): run as root where cgroups are writable"))
    }

    /// Removes the cgroup (once its processes have exited).
    func remove() {
        for _ in 0..<50 {
            if rmdir(path) == 0 || errno == ENOENT { return }
            BenchPause.milliseconds(20)
        }
    }

    /// The command that starts `executable` inside the cgroup: a shell that
    /// moves itself in, then becomes the program (same PID), so the bridge
    /// never runs a single instruction outside its budget.
    func wrapped(executable: String, arguments: [String]) -> (executable: String, arguments: [String]) {
        ("/bin/sh", ["-c", "echo $$ > '\(procsFile)' && exec \"$0\" \"$@\"", executable] + arguments)
    }

    private static func makeDirectory(_ path: String) -> Bool {
        mkdir(path, 0o755) == 0 || errno == EEXIST
    }

    private static func write(_ text: String, to path: String) -> Bool {
        guard let file = fopen(path, "w") else { return false }
        let written = fputs(text, file) >= 0
        return fclose(file) == 0 && written
    }
}
