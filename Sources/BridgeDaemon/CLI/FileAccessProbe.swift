import BridgeCore
import Glibc

/// What `check` asks the file system, as the daemon's user would meet it: can
/// a file be read, who may read it, can a directory be created and written.
enum FileAccessProbe {
    /// Why `path` cannot be opened for reading through the one opening path
    /// (`FileBytes.readProblem`: "No such file or directory (errno 2)", "a FIFO,
    /// not a regular file; …"), or nil when it can.
    static func readProblem(_ path: String, limit: Int = .max) -> String? {
        FileBytes.readProblem(path: path, limit: limit)?.why
    }

    /// The most a CA file may be (the system's whole bundle is about 220 KB).
    static let maxCAFileBytes = 4 * 1024 * 1024

    /// The CA files of `config` (setting key, path): libcurl and libmosquitto open
    /// them themselves, with a blocking `open`, so `check`, `run` and `discover`
    /// look at them through the one opening path first.
    static func caFiles(_ config: BridgeConfig) -> [(key: String, path: String)] {
        var files: [(key: String, path: String)] = []
        if let path = config.aivi.caFile { files.append((key: "aivi.ca_file", path: path)) }
        if let path = config.mqtt.tls?.caFile { files.append((key: "mqtt.tls.ca_file", path: path)) }
        return files
    }

    /// Why the bridge would refuse the id file `path` in its state directory (a
    /// FIFO, a symbolic link, anything but a regular file), or nil (absent,
    /// regular, or only unreadable, which the state directory's check reports).
    static func refusedStateFileProblem(_ path: String) -> String? {
        do {
            let file = try FileBytes.openRegularFile(path: path, flags: O_RDONLY | O_NOFOLLOW)
            close(file.descriptor)
            return nil
        } catch {
            return error.refusedKind
        }
    }

    /// Why a user who is neither the owner nor in the group of `path` (the unit's
    /// `DynamicUser=`) could not read it: the file lacks the "others may read" bit,
    /// or a directory above it the "others may enter" bit. Nil when such a user
    /// can, or the file cannot be examined (its error is said elsewhere).
    static func unreadableByOtherUsers(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        if status.st_mode & S_IROTH == 0 {
            return "mode \(OctalText.format(UInt32(status.st_mode))), owner \(ownerName(status.st_uid))"
        }
        var directory = parentDirectory(of: path)
        for _ in 0..<64 {
            var directoryStatus = stat()
            if stat(directory, &directoryStatus) == 0, directoryStatus.st_mode & S_IXOTH == 0 {
                return "its directory \(directory) is mode \(OctalText.format(UInt32(directoryStatus.st_mode))), "
                    + "owner \(ownerName(directoryStatus.st_uid))"
            }
            guard directory != "/", directory != "." else { return nil }
            directory = parentDirectory(of: directory)
        }
        return nil
    }

    private static func ownerName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return String(cString: name)
    }

    /// The permission bits of `path`, nil when it cannot be examined.
    static func permissionBits(_ path: String) -> UInt32? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return UInt32(status.st_mode) & 0o7777
    }

    /// Why the daemon's user could not use `path` as its state directory (it
    /// creates it with `mkdir`, then writes files in it), or nil.
    static func stateDirectoryProblem(_ path: String) -> String? {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { return "\(path) exists and is not a directory" }
            guard access(path, W_OK | X_OK) == 0 else { return "\(path) is not writable: \(SystemErrorText.describe(errno))" }
            return nil
        }
        let failure = errno
        guard failure == ENOENT else { return "\(path) cannot be examined: \(SystemErrorText.describe(failure))" }
        let parent = parentDirectory(of: path)
        var parentStatus = stat()
        guard stat(parent, &parentStatus) == 0, parentStatus.st_mode & S_IFMT == S_IFDIR else {
            return "\(path) cannot be created: its parent \(parent) does not exist"
        }
        guard access(parent, W_OK | X_OK) == 0 else {
            return "\(path) cannot be created in \(parent): \(SystemErrorText.describe(errno))"
        }
        return nil
    }

    /// "root (uid 0)": the user whose rights were checked.
    static func currentUserDescription() -> String {
        let uid = geteuid()
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return "\(String(cString: name)) (uid \(uid))"
    }

    static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
