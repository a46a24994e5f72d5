import Glibc

/// Removes a private temporary directory and what is in it.
public enum DirectoryTree {
    /// Removes `path` and everything under it, at most `maxDepth` levels deep;
    /// symbolic links are removed, never followed. Returns whether `path` is gone.
    @discardableResult
    public static func remove(_ path: String, maxDepth: Int = 16) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT }
        guard info.st_mode & S_IFMT == S_IFDIR else { return unlink(path) == 0 }
        if maxDepth > 0 {
            for name in entries(of: path) { remove(path + "/" + name, maxDepth: maxDepth - 1) }
        }
        return rmdir(path) == 0
    }

    /// The names in a directory, without `.` and `..`.
    static func entries(of path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
