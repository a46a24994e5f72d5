import Glibc

/// Reads a small secret file through the one opening path (`FileBytes`: never
/// blocking on a FIFO, regular files only, bounded), together with its
/// permission bits (taken from the opened descriptor, so both describe the same file).
enum TokenFileReader {
    /// A token is short; anything bigger is not a token file.
    static let maximumSizeBytes = 16 * 1024

    struct Contents {
        let text: String
        let mode: UInt32
    }

    /// The file's text and mode, or nil when the file does not exist.
    static func read(path: String, source: TokenSource) throws(CredentialError) -> Contents? {
        let contents: FileContents
        do { contents = try FileBytes.contents(path: path, limit: maximumSizeBytes) } catch {
            if error.errorNumber == ENOENT || error.errorNumber == ENOTDIR { return nil }
            if error.errorNumber == EFBIG { throw .tooLarge(source, limitBytes: maximumSizeBytes) }
            if let reason = error.reason { throw .refusedFile(source, reason: reason) }
            throw .unreadable(source, errno: error.errorNumber)
        }
        guard let text = String(validating: contents.bytes, as: UTF8.self) else { throw .notText(source) }
        return Contents(text: text, mode: contents.permissionBits)
    }
}
