import Glibc

/// Reads a small secret file with plain POSIX calls, together with its permission bits
/// (taken from the opened descriptor, so both describe the same file).
enum TokenFileReader {
    /// A token is short; anything bigger is not a token file.
    static let maximumSizeBytes = 16 * 1024

    struct Contents {
        let text: String
        let mode: UInt32
    }

    /// The file's text and mode, or nil when the file does not exist.
    static func read(path: String, source: TokenSource) throws(CredentialError) -> Contents? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            let failure = errno
            if failure == ENOENT || failure == ENOTDIR { return nil }
            throw .unreadable(source, errno: failure)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(source, errno: errno) }
        let bytes = try readAll(descriptor, source: source)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notText(source) }
        return Contents(text: text, mode: UInt32(status.st_mode))
    }

    private static func readAll(_ descriptor: Int32, source: TokenSource) throws(CredentialError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(source, errno: errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > maximumSizeBytes { throw .tooLarge(source, limitBytes: maximumSizeBytes) }
        }
    }
}
