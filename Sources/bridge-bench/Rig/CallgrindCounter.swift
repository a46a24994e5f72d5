import Glibc
import ShellSupport

/// The bridge started under valgrind's callgrind, which counts every instruction the
/// process executes: a figure the machine's caches, clock and neighbours play no
/// part in, unlike CPU time (`--instructions`).
struct CallgrindCounter: BridgeWrapper {
    let valgrindPath: String
    /// Where callgrind writes its counts when the process exits.
    let outputPath: String

    /// The counter writing to `outputPath`, or nil where valgrind is not installed.
    static func find(outputPath: String) -> CallgrindCounter? {
        ChildProcess.find("valgrind").map { CallgrindCounter(valgrindPath: $0, outputPath: outputPath) }
    }

    func wrapped(executable: String, arguments: [String]) -> (executable: String, arguments: [String]) {
        (valgrindPath, ["--tool=callgrind", "--callgrind-out-file=" + outputPath, "--", executable] + arguments)
    }

    /// The instructions the process executed from start to exit (the output's
    /// `summary:` line, in its header), nil until it has exited.
    func totalInstructions() -> Int64? {
        guard let text = ProcFile.read(outputPath, limitBytes: 64 * 1024) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix(Self.summaryPrefix) }
        return line.flatMap { Int64($0.dropFirst(Self.summaryPrefix.count)) }
    }

    private static let summaryPrefix = "summary: "
}
