import Glibc

/// A file operation that failed, with the path and the system's reason.
public struct FileError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var operation: String
    public var errorNumber: Int32
    /// Said instead of the system's reason when set.
    public var reason: String? = nil
    public var description: String {
        "\(operation) \(path): \(reason ?? String(cString: strerror(errorNumber)))"
    }
}

/// Whole-file reads and durable writes with POSIX calls.
public enum FileBytes {
    /// Reads a whole regular file, refusing one larger than `limit` bytes and
    /// anything else (a FIFO, a device, a directory): opened without blocking, so a
    /// FIFO with no writer cannot hang the caller (a SIGHUP reload, `check`).
    public static func read(path: String, limit: Int) throws(FileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw FileError(path: path, operation: "open", errorNumber: errno) }
        defer { close(descriptor) }
        try requireRegularFile(descriptor, path: path)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "read", errorNumber: errno)
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit { throw FileError(path: path, operation: "read (too large)", errorNumber: EFBIG) }
        }
    }

    /// Throws unless `descriptor` is a regular file.
    static func requireRegularFile(_ descriptor: Int32, path: String) throws(FileError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileError(path: path, operation: "stat", errorNumber: errno) }
        let type = status.st_mode & S_IFMT
        guard type != S_IFREG else { return }
        let kind: String
        switch type {
        case S_IFIFO: kind = "a FIFO"
        case S_IFDIR: kind = "a directory"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a file"
        }
        throw FileError(path: path, operation: "read", errorNumber: EINVAL,
                        reason: "\(kind), not a regular file; give the path of a regular file")
    }

    /// Writes a temp file beside `path`, fsyncs it, renames it over `path` and
    /// fsyncs the directory, so the file is either old or new after a crash.
    /// The temp file is created afresh (`O_EXCL`, a leftover removed first),
    /// never through a symbolic link (`O_NOFOLLOW`), readable by the owner only.
    public static func writeDurably(path: String, bytes: [UInt8]) throws(FileError) {
        let temporary = path + ".tmp"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileError(path: temporary, operation: "create", errorNumber: errno) }
        do {
            try writeAll(descriptor: descriptor, bytes: bytes, path: temporary)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard fsync(descriptor) == 0 else {
            let failure = errno
            close(descriptor)
            unlink(temporary)
            throw FileError(path: temporary, operation: "fsync", errorNumber: failure)
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw FileError(path: path, operation: "rename", errorNumber: failure)
        }
        syncDirectory(of: path)
    }

    /// Writes all of `bytes` to `descriptor`, retrying short writes and `EINTR`.
    public static func writeAll(descriptor: Int32, bytes: [UInt8], path: String) throws(FileError) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw FileError(path: path, operation: "write", errorNumber: count < 0 ? errno : EIO) }
            written += count
        }
    }

    private static func syncDirectory(of path: String) {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
