import Glibc
import ShellSupport
import Testing

@testable import BridgeDaemon

/// A fresh directory under /tmp, removed (with its files) by `remove()`.
struct SystemdTestDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/switchboard-ops-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard created != nil else { throw SystemdTestFailure("mkdtemp failed, errno \(errno)") }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Writes `contents` to `name` with permission bits `mode`; returns the full path.
    @discardableResult
    func writeFile(_ name: String, _ contents: String, mode: mode_t = 0o600) throws -> String {
        let filePath = path + "/" + name
        let descriptor = open(filePath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw SystemdTestFailure("cannot create \(filePath), errno \(errno)") }
        defer { close(descriptor) }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw SystemdTestFailure("short write to \(filePath)") }
        guard fchmod(descriptor, mode) == 0 else { throw SystemdTestFailure("fchmod failed, errno \(errno)") }
        return filePath
    }

    /// Reads a whole file as text.
    func readFile(_ name: String) throws -> String {
        try SystemdTestFiles.read(path + "/" + name)
    }

    /// Removes the directory and the files in it (no subdirectories are created).
    func remove() {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name != "." && name != ".." {
                    let entryPath = path + "/" + name
                    if unlink(entryPath) != 0 { rmdir(entryPath) }
                }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}

enum SystemdTestFiles {
    static func read(_ path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemdTestFailure("cannot open \(path), errno \(errno)") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The repository root, found from this source file's path.
    static func repositoryRoot(filePath: String = #filePath) -> String {
        var components = filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(4)  // Tests/BridgeDaemonTests/Systemd/<file>.swift
        return components.joined(separator: "/")
    }
}

struct SystemdTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs a program with arguments, capturing stdout and stderr together, bounded in time.
enum SystemdTestProcess {
    struct Outcome {
        let exitStatus: Int32
        let output: String
    }

    static func run(_ executable: String, _ arguments: [String], deadlineMs: Int32 = 60_000) throws -> Outcome {
        var pipeDescriptors: [Int32] = [0, 0]
        guard pipe(&pipeDescriptors) == 0 else { throw SystemdTestFailure("pipe failed") }
        pipeDescriptors.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        let processID = try spawn(executable, arguments, outputDescriptor: pipeDescriptors[1])
        close(pipeDescriptors[1])
        defer { close(pipeDescriptors[0]) }
        let output = readUntilEnd(pipeDescriptors[0], deadlineMs: deadlineMs)
        if output == nil { kill(processID, SIGKILL) }
        var status: Int32 = 0
        waitpid(processID, &status, 0)
        guard let output else { throw SystemdTestFailure("\(executable) did not finish in \(deadlineMs) ms") }
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
        return Outcome(exitStatus: exitStatus, output: output)
    }

    private static func spawn(_ executable: String, _ arguments: [String], outputDescriptor: Int32) throws -> pid_t {
        try ProcessSpawner.spawn(executable: executable, arguments: arguments, stdout: .descriptor(outputDescriptor))
    }

    /// Everything until EOF, or nil when the deadline passes first.
    private static func readUntilEnd(_ descriptor: Int32, deadlineMs: Int32) -> String? {
        let deadline = MonotonicClock.nowMs() + Int64(deadlineMs)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let remainingMs = deadline - MonotonicClock.nowMs()
            guard remainingMs > 0 else { return nil }
            var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&pollDescriptor, 1, Int32(remainingMs)) <= 0 { continue }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[0..<count]
        }
    }
}
