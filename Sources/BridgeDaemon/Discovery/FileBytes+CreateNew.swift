import Glibc

extension FileBytes {
    /// Writes a new file; refuses (EEXIST) when `path` exists, so nothing is ever overwritten.
    public static func createNew(path: String, bytes: [UInt8], mode: mode_t = 0o644) throws(FileError) {
        let descriptor = try openRegularFile(path: path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode).descriptor
        defer { close(descriptor) }
        try writeAll(descriptor: descriptor, bytes: bytes, path: path)
        guard fsync(descriptor) == 0 else { throw FileError(path: path, operation: "fsync", errorNumber: errno) }
    }
}
