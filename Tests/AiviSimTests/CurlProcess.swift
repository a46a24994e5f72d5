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

/// Spawns a program with posix_spawn, reads its stdout to the end, waits for it.
enum ProcessRunner {
    static func run(_ path: String, _ arguments: [String]) throws -> CurlProcess.Result {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw TestFailure("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var attributes = SpawnAttributes()
        let spawned = posix_spawn(&pid, path, &actions, &attributes.value, argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw TestFailure("posix_spawn \(path) failed: \(spawned)")
        }
        let output = readAll(pipeEnds[0])
        close(pipeEnds[0])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
        return CurlProcess.Result(exitCode: exitCode, output: output)
    }

    static func readAll(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
