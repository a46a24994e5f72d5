import Glibc

/// Where this process's executable is (from /proc/self/exe): the bench finds the
/// daemon beside itself, the installed demo its example config under ../share.
public enum OwnExecutable {
    /// The directory holding this executable, symbolic links resolved; nil when /proc is not there.
    public static func directory() -> String? {
        guard let path = path(), let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }

    /// This executable's path, symbolic links resolved; nil when /proc is not there.
    public static func path() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
