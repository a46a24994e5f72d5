import Glibc

/// The exclusive lock that makes one bridge the only user of its state
/// directory: two bridges on one `state_dir` would each carry out every press
/// of an action not safe to repeat (each keeps its own memory of event ids).
///
/// `flock(LOCK_EX | LOCK_NB)` on `bridge.lock` inside the directory, taken at
/// start and held for the life of the process (the kernel releases it when the
/// process ends, however it ends); the holder's PID is written in the file so a
/// second process, and `check`, can name it.
public final class StateDirectoryLock: Sendable {
    /// The lock file, inside `state_dir`.
    public static let fileName = "bridge.lock"
    /// How long a start waits for a lock held only for a moment (`check`'s probe).
    static let acquireAttempts = 10
    static let attemptIntervalUs: UInt32 = 20_000

    public let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Why the lock was not taken.
    public enum Failure: Error, CustomStringConvertible {
        /// Another process holds it; `pid` as written in the file, when readable.
        case heldByAnother(path: String, pid: Int32?)
        case file(FileError)

        public var description: String {
            switch self {
            case .heldByAnother(let path, let pid):
                return "another switchboard-bridge \(pid.map { "(PID \($0)) " } ?? "")already runs on this state directory "
                    + "(it holds \(path)); two bridges would each carry out presses not safe to repeat: stop it "
                    + "(`sudo systemctl stop switchboard-bridge`, or kill \(pid.map(String.init) ?? "it")) or give this one "
                    + "another state_dir"
            case .file(let error): return "cannot lock the state directory: \(error)"
            }
        }
    }

    /// Takes the lock on `directory` (which exists) and writes this process's PID in it.
    public static func acquire(directory: String) throws(Failure) -> StateDirectoryLock {
        let path = lockPath(directory)
        let descriptor = try openLockFile(path, flags: O_RDWR | O_CREAT)
        var attempt = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            attempt += 1
            guard failure == EWOULDBLOCK || failure == EINTR, attempt < acquireAttempts else {
                let pid = writtenPID(descriptor)
                close(descriptor)
                if failure == EWOULDBLOCK { throw .heldByAnother(path: path, pid: pid) }
                throw .file(FileError(path: path, operation: "flock", errorNumber: failure))
            }
            usleep(attemptIntervalUs)
        }
        let pid = Array("\(getpid())\n".utf8)
        guard ftruncate(descriptor, 0) == 0 else {
            let failure = errno
            close(descriptor)
            throw .file(FileError(path: path, operation: "truncate", errorNumber: failure))
        }
        let written = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == pid.count else {
            let failure = written < 0 ? errno : EIO
            close(descriptor)
            throw .file(FileError(path: path, operation: "write", errorNumber: failure))
        }
        return StateDirectoryLock(path: path, descriptor: descriptor)
    }

    /// Who holds the lock on `directory` now, for `check`: nil when nobody does
    /// (or there is no lock file yet). The probe is a shared lock held for a
    /// moment; a bridge starting meanwhile waits for it (`acquireAttempts`).
    public static func holder(directory: String) -> Failure? {
        let path = lockPath(directory)
        let descriptor: Int32
        do { descriptor = try openLockFile(path, flags: O_RDONLY) } catch {
            if case .file(let error) = error, error.errorNumber == ENOENT { return nil }
            return error
        }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) != 0 else {
            flock(descriptor, LOCK_UN)
            return nil
        }
        guard errno == EWOULDBLOCK else { return .file(FileError(path: path, operation: "flock", errorNumber: errno)) }
        return .heldByAnother(path: path, pid: writtenPID(descriptor))
    }

    static func lockPath(_ directory: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + fileName
    }

    /// Opens the lock file through the one opening path, without following a
    /// symbolic link.
    private static func openLockFile(_ path: String, flags: Int32) throws(Failure) -> Int32 {
        do { return try FileBytes.openRegularFile(path: path, flags: flags | O_NOFOLLOW).descriptor } catch {
            throw .file(error)
        }
    }

    /// The PID written in the lock file: its first line, digits only.
    private static func writtenPID(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 24)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let line = bytes[0..<count].prefix { $0 != UInt8(ascii: "\n") }
        guard !line.isEmpty, line.count <= 10, line.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let pid = Int32(String(decoding: line, as: UTF8.self)), pid > 0 else { return nil }
        return pid
    }
}
