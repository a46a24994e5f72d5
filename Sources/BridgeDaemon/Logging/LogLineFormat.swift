/// How log lines look on stderr.
public enum LogLineFormat: Equatable, Sendable {
    /// stderr is the journal: `<4>message`, no timestamp (journald adds its own).
    case journal
    /// A terminal or file: `2026-11-29T23:00:11.123Z warning message`.
    case plain

    /// Chooses the format: `.journal` when `$JOURNAL_STREAM` is set and, if stderr's
    /// identity is known, names the same `device:inode` as stderr (so a redirected
    /// stderr gets plain lines, as systemd recommends).
    public static func detect(
        journalStream: String?,
        standardErrorIdentity: FileIdentity?
    ) -> LogLineFormat {
        guard let journalStream, !journalStream.isEmpty else { return .plain }
        guard let standardErrorIdentity, let streamIdentity = FileIdentity(parsing: journalStream) else {
            return .journal
        }
        return streamIdentity == standardErrorIdentity ? .journal : .plain
    }
}

/// A file's device and inode numbers, as in `$JOURNAL_STREAM` (`"device:inode"`).
public struct FileIdentity: Equatable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// Parses `"device:inode"` (decimal numbers).
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return nil }
        self.init(device: device, inode: inode)
    }
}
