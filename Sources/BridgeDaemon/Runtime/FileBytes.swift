import Glibc

/// A file operation that failed, with the path and the system's reason.
public struct FileError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var operation: String
    public var errorNumber: Int32
    /// Said instead of the system's reason when set: the bridge itself refused
    /// the file (a FIFO, a symbolic link, too large).
    public var reason: String? = nil
    /// What is at the path when its kind was refused: "a FIFO, not a regular file".
    public var refusedKind: String? = nil
    public var description: String {
        "\(operation) \(path): \(reason ?? String(cString: strerror(errorNumber)))"
    }
    /// The reason alone: "a FIFO, not a regular file; …" or "Permission denied (errno 13)".
    public var why: String { reason ?? SystemErrorText.describe(errorNumber) }
}

/// A descriptor opened by `FileBytes.openRegularFile`, with what `fstat` said of it.
public struct OpenedFile: Sendable {
    /// Owned by the caller, who closes it.
    public let descriptor: Int32
    public let sizeBytes: Int
    /// The permission bits (`0o640`), of the opened file itself.
    public let permissionBits: UInt32
}

/// A whole file read through `FileBytes.contents`, with its permission bits.
public struct FileContents: Sendable {
    public let bytes: [UInt8]
    public let permissionBits: UInt32
}

/// Whole-file reads and durable writes with POSIX calls. Every file the bridge
/// reads or writes itself is opened through `openRegularFile`, the one opening
/// path; one a C library opens itself (a CA file) is checked through it first.
public enum FileBytes {
    /// The one way the bridge opens a file. `flags` are `open(2)`'s (`O_RDONLY`,
    /// `O_WRONLY | O_APPEND | O_CREAT`, …); always added: `O_NONBLOCK`, so a FIFO
    /// with no writer (or, for writing, no reader) cannot hang the caller, and
    /// `O_CLOEXEC`. Then `fstat` on the opened descriptor (the same file, not a
    /// second look at the path): anything but a regular file (a FIFO, a device, a
    /// directory, a socket) is closed and refused, with a clear reason, as is a
    /// symbolic link when `flags` hold `O_NOFOLLOW`. `O_NONBLOCK` changes nothing
    /// for a regular file's reads and writes.
    public static func openRegularFile(path: String, flags: Int32, mode: mode_t = 0o600) throws(FileError) -> OpenedFile {
        let descriptor = open(path, flags | O_NONBLOCK | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let failure = errno
            // ELOOP: a symbolic link under O_NOFOLLOW; ENXIO: a FIFO without a reader
            // (opened for writing) or a socket. Both are said as what the path is.
            if failure == ELOOP || failure == ENXIO, let kind = kindAt(path) {
                throw refusal(path, operation: "open", kind: kind)
            }
            throw FileError(path: path, operation: "open", errorNumber: failure)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = errno
            close(descriptor)
            throw FileError(path: path, operation: "stat", errorNumber: failure)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw refusal(path, operation: "open", kind: kindName(status.st_mode))
        }
        return OpenedFile(descriptor: descriptor, sizeBytes: Int(status.st_size), permissionBits: UInt32(status.st_mode) & 0o7777)
    }

    /// Reads a whole regular file, refusing one larger than `limit` bytes and
    /// anything but a regular file (`openRegularFile`); a symbolic link too
    /// unless `followsSymbolicLinks`.
    public static func read(path: String, limit: Int, followsSymbolicLinks: Bool = true) throws(FileError) -> [UInt8] {
        try contents(path: path, limit: limit, followsSymbolicLinks: followsSymbolicLinks).bytes
    }

    /// `read`, with the permission bits of the file that was read.
    public static func contents(path: String, limit: Int, followsSymbolicLinks: Bool = true) throws(FileError) -> FileContents {
        let file = try openRegularFile(path: path, flags: O_RDONLY | (followsSymbolicLinks ? 0 : O_NOFOLLOW))
        defer { close(file.descriptor) }
        guard file.sizeBytes <= limit else { throw tooLarge(path, limit: limit) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(file.descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "read", errorNumber: errno)
            }
            if count == 0 { return FileContents(bytes: bytes, permissionBits: file.permissionBits) }
            bytes += chunk[0..<count]
            // The file may grow while it is read: bounded here too.
            if bytes.count > limit { throw tooLarge(path, limit: limit) }
        }
    }

    /// Why `path` cannot be opened for reading through the one path (missing,
    /// not permitted, a FIFO, larger than `limit`), or nil when it can. The file
    /// is opened and closed, nothing is read: for a file a C library opens itself.
    public static func readProblem(path: String, limit: Int = .max) -> FileError? {
        do {
            let file = try openRegularFile(path: path, flags: O_RDONLY)
            close(file.descriptor)
            return file.sizeBytes <= limit ? nil : tooLarge(path, limit: limit)
        } catch {
            return error
        }
    }

    private static func tooLarge(_ path: String, limit: Int) -> FileError {
        FileError(path: path, operation: "read", errorNumber: EFBIG, reason: "larger than \(limit) bytes, the most the bridge reads")
    }

    private static func refusal(_ path: String, operation: String, kind: String) -> FileError {
        let fix = kind == "a symbolic link" ? "replace it with the file itself" : "give the path of a regular file"
        return FileError(path: path, operation: operation, errorNumber: EINVAL, reason: "\(kind), not a regular file; \(fix)",
                         refusedKind: "\(kind), not a regular file")
    }

    /// What is at `path` itself (not following a link), nil when nothing is.
    private static func kindAt(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return kindName(status.st_mode)
    }

    private static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a directory"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a file"
        }
    }

    /// Writes a temp file beside `path`, fsyncs it, renames it over `path` and
    /// fsyncs the directory, so the file is either old or new after a crash.
    /// The temp file is created afresh (`O_EXCL`, a leftover removed first),
    /// never through a symbolic link (`O_NOFOLLOW`), readable by the owner only.
    public static func writeDurably(path: String, bytes: [UInt8]) throws(FileError) {
        let temporary = path + ".tmp"
        unlink(temporary)
        try writeTemporary(temporary, bytes: bytes, mode: 0o600)
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw FileError(path: path, operation: "rename", errorNumber: failure)
        }
        syncDirectory(of: path)
    }

    /// Creates `temporary` afresh through the one opening path (`O_EXCL`, never
    /// through a symbolic link), writes all of `bytes` and fsyncs them; on any
    /// failure (a full disk, a file size limit) removes it, so nothing is left.
    static func writeTemporary(_ temporary: String, bytes: [UInt8], mode: mode_t) throws(FileError) {
        let descriptor = try openRegularFile(path: temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode).descriptor
        do throws(FileError) {
            try writeAll(descriptor: descriptor, bytes: bytes, path: temporary)
            guard fsync(descriptor) == 0 else { throw FileError(path: temporary, operation: "fsync", errorNumber: errno) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
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

    static func syncDirectory(of path: String) {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
