import Glibc

/// Checks of the state directory's permissions at start.
enum StateDirectoryCheck {
    /// A warning when users other than the owner may write to `directory`
    /// (they could plant or replace the id file), else nil.
    static func writableByOthers(_ directory: String) -> String? {
        var status = stat()
        guard stat(directory, &status) == 0 else { return nil }
        let mode = status.st_mode & 0o7777
        guard mode & (S_IWGRP | S_IWOTH) != 0 else { return nil }
        let octal = String(mode, radix: 8)
        return "state directory \(directory) is writable by \(mode & S_IWOTH != 0 ? "every user" : "its group") (mode \(octal)): "
            + "another user could plant or replace the record of presses not safe to repeat; chmod 700 it"
    }
}
