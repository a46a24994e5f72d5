import Glibc

extension FileBytes {
    /// Writes a new file, never replacing one (EEXIST when `path` exists). The bytes
    /// go to a temp file beside `path` first (fsync'd), which takes the name only
    /// when complete, so a write that fails part way (a full disk, a file size
    /// limit) leaves no truncated file at `path` for a rerun to refuse.
    public static func createNew(path: String, bytes: [UInt8], mode: mode_t = 0o644) throws(FileError) {
        let temporary = "\(path).\(getpid()).tmp"
        try writeTemporary(temporary, bytes: bytes, mode: mode)
        do throws(FileError) {
            try nameWithoutReplacing(temporary, as: path, mode: mode)
        } catch {
            unlink(temporary)
            throw error
        }
        syncDirectory(of: path)
    }

    /// Gives the file at `temporary` the name `path` unless `path` exists: a hard
    /// link, atomic, refused with EEXIST when the name is taken, then the temp name
    /// removed. Where the filesystem has no hard links (vfat: EPERM), the name is
    /// taken with `O_EXCL` (EEXIST when taken) and the temp file renamed over it.
    private static func nameWithoutReplacing(_ temporary: String, as path: String, mode: mode_t) throws(FileError) {
        if link(temporary, path) == 0 {
            unlink(temporary)
            return
        }
        let failure = errno
        guard failure == EPERM || failure == EOPNOTSUPP else { throw FileError(path: path, operation: "create", errorNumber: failure) }
        let reserved = try openRegularFile(path: path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode).descriptor
        close(reserved)
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(path)
            throw FileError(path: path, operation: "rename", errorNumber: failure)
        }
    }
}
