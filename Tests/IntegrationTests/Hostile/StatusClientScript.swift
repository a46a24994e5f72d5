import Foundation
import TestSupport

/// Clients of the status server in a python3 child process, stopped by PID: the
/// script runs as `script PORT COUNT REPORT_FILE` and reports a number (how many
/// are open, stalled, answered) by replacing the report file. What the slowloris,
/// pipelining and kept-alive clients share.
final class StatusClientScript: @unchecked Sendable {
    private let directory: TemporaryDirectory
    private let process: ChildProcess

    init(name: String, python: String, port: Int, clients: Int) throws {
        directory = try TemporaryDirectory(prefix: name)
        let script = directory.file("\(name).py")
        try python.write(toFile: script, atomically: true, encoding: .utf8)
        process = try ChildProcess(executable: "/usr/bin/python3",
                                   arguments: [script, String(port), String(clients), directory.file("report")],
                                   directory: directory.path, name: name)
    }

    /// The number the script reported last (0 before its first report).
    var reported: Int { Int((try? String(contentsOfFile: directory.file("report"), encoding: .utf8)) ?? "") ?? 0 }

    func stop() {
        process.stop()
        directory.remove()
    }
}
