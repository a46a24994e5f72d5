import Glibc
import ShellSupport

extension StandardErrorWriter {
    /// Device and inode of stderr, to compare with `$JOURNAL_STREAM`.
    public static func identity() -> FileIdentity? {
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}
