import Glibc

/// Removes the bench's temporary directory after a successful run.
enum DirectoryRemoval {
    /// Removes `path` and everything under it (symbolic links are removed, not followed).
    static func removeTree(_ path: String, depth: Int = 0) {
        guard depth < 16 else { return }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            for name in ProcFile.entries(of: path) { removeTree(path + "/" + name, depth: depth + 1) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
