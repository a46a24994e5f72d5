import Glibc

/// Writes whole lines to file descriptor 2 (or another descriptor), unbuffered, retrying short
/// writes and `EINTR`: the one line writer of every program (the daemon's log, `watch`'s
/// stdout, `aivi-sim`'s and `bridge-bench`'s messages).
public enum StandardErrorWriter {
    /// Writes `line` and a newline; failures are dropped (there is nowhere to report them).
    @Sendable public static func writeLine(_ line: String) {
        writeLine(line, toDescriptor: STDERR_FILENO)
    }

    /// Writes `line` and a newline to `descriptor` (`watch` writes stdout this way, unbuffered).
    public static func writeLine(_ line: String, toDescriptor descriptor: Int32) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
