#if canImport(Glibc)
import Glibc
#endif
import ShellSupport

/// A long-running child process with its stdout and stderr on one pipe (a refusal the
/// test provokes is read, not printed among the test run's lines); stopped by PID.
final class SpawnedProcess {
    let pid: pid_t
    private let outputDescriptor: Int32
    private(set) var output = ""
    private var isReaped = false

    init(_ path: String, _ arguments: [String]) throws {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw TestFailure("pipe failed") }
        let spawned = Result { try ProcessSpawner.spawn(executable: path, arguments: arguments, stdout: .descriptor(pipeEnds[1])) }
        close(pipeEnds[1])
        guard case .success(let childPid) = spawned else {
            close(pipeEnds[0])
            throw TestFailure("cannot start \(path): \(spawned)")
        }
        pid = childPid
        outputDescriptor = pipeEnds[0]
    }

    deinit {
        stop()
        close(outputDescriptor)
    }

    /// Reads stdout until `condition` holds on it or the deadline passes.
    func readOutput(until condition: (String) -> Bool, timeoutMs: Int = 10_000) -> Bool {
        let deadline = Deadline(milliseconds: timeoutMs)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !condition(output) {
            if deadline.hasPassed { return false }
            var descriptor = pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(outputDescriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return condition(output) }
            output += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return true
    }

    /// Reads stdout until the child closes it (programs that end by themselves).
    func readToEnd() -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(outputDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return output }
            output += String(decoding: buffer[0..<count], as: UTF8.self)
        }
    }

    /// Waits for a child that ends by itself; its exit code, or -1 for a signal.
    func waitForExit() -> Int32 {
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        isReaped = true
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    /// Sends SIGTERM (SIGKILL after 5 s) and reaps the child; its exit code, or -1
    /// when it died by a signal.
    @discardableResult
    func stop() -> Int32 {
        guard !isReaped else { return 0 }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = Deadline(milliseconds: 5_000)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if deadline.hasPassed {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(5_000)
        }
        isReaped = true
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}
