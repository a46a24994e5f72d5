import Glibc
import ShellSupport

/// Size: the bridge binary as built, stripped (a copy, by `strip`), and whether
/// it carries the Swift runtime inside (`--static-swift-stdlib`: no libswiftCore in `ldd`).
enum SizeScenario {
    static let limitBytes: Int64 = 25 * 1024 * 1024

    static func run(bridgeExecutable: String, directory: String, table: inout ResultTable) {
        let built = ProcFile.size(of: bridgeExecutable) ?? 0
        table.add("size", "binary as built", Figure.megabytes(kB: built / 1024))
        let isStatic = usesStaticSwiftRuntime(bridgeExecutable, directory: directory)
        let stripped = strippedSize(bridgeExecutable, directory: directory)
        guard let stripped else {
            table.add("size", "stripped", "strip not available", target: "≤ 25.0 MB", .reported)
            return
        }
        let figure = isStatic ? "stripped, --static-swift-stdlib" : "stripped (dynamic Swift runtime: not the target build)"
        let verdict: Verdict = isStatic ? (stripped <= limitBytes ? .met : .missed) : .reported
        table.add("size", figure, Figure.megabytes(kB: stripped / 1024), target: "≤ 25.0 MB", verdict)
    }

    private static func strippedSize(_ executable: String, directory: String) -> Int64? {
        guard let strip = ChildProcess.find("strip") else { return nil }
        let output = directory + "/switchboard-bridge.stripped"
        guard runToEnd(strip, ["-o", output, executable], log: directory + "/strip.log") else { return nil }
        return ProcFile.size(of: output)
    }

    private static func usesStaticSwiftRuntime(_ executable: String, directory: String) -> Bool {
        guard let ldd = ChildProcess.find("ldd") else { return false }
        let log = directory + "/ldd.log"
        guard runToEnd(ldd, [executable], log: log), let text = ProcFile.read(log) else { return false }
        return !text.contains("libswiftCore")
    }

    /// Runs a short helper to its end (at most 30 s).
    private static func runToEnd(_ executable: String, _ arguments: [String], log: String) -> Bool {
        guard let process = try? ChildProcess(executable: executable, arguments: arguments, logPath: log) else { return false }
        let deadlineMs = MonotonicClock.nowMs() + 30_000
        while MonotonicClock.nowMs() < deadlineMs {
            if process.hasExited { return true }
            BenchPause.milliseconds(10)
        }
        process.stop()
        return false
    }
}
