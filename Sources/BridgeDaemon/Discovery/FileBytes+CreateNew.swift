import Glibc

extension FileBytes {
    /// Writes a new file; refuses (EEXIST) when `path` exists, so nothing is ever overwritten.
    public static func createNew(path: String, bytes: [UInt8], mode: mode_t = 0o644) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileError(path: path, operation: "create", errorNumber: errno) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "write", errorNumber: errno)
            }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw FileError(path: path, operation: "fsync", errorNumber: errno) }
    }
}
