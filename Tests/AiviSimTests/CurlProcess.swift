#if canImport(Glibc)
import Glibc
#endif

/// Runs `/usr/bin/curl` with arguments and collects what it printed.
enum CurlProcess {
    struct Result {
        var exitCode: Int32
        var output: String
    }

    static func run(_ arguments: [String]) throws -> Result {
        try ProcessRunner.run("/usr/bin/curl", ["-sS", "--max-time", "10"] + arguments)
    }

    /// Runs curl with `-w` printing the status code after the body on its own line.
    static func request(_ arguments: [String]) throws -> (status: Int, body: String) {
        let result = try run(arguments + ["-w", "\n%{http_code}"])
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? -1
        return (status, lines.dropLast().joined(separator: "\n"))
    }
}

/// Runs a program to its end and collects its stdout and exit code.
enum ProcessRunner {
    static func run(_ path: String, _ arguments: [String]) throws -> CurlProcess.Result {
        let process = try SpawnedProcess(path, arguments)
        let output = process.readToEnd()
        return CurlProcess.Result(exitCode: process.waitForExit(), output: output)
    }
}
