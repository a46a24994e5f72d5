/// Something about a loaded credential that a person should fix; the daemon logs it.
public enum CredentialWarning: Equatable, Sendable, CustomStringConvertible {
    /// The token file can be read by its group or by everyone (`mode` is the
    /// permission bits, e.g. `0o644`).
    case tokenFileReadableByOthers(path: String, mode: UInt32)
    /// The MQTT password file (`mqtt.password_file`) can be read by its group or by everyone.
    case passwordFileReadableByOthers(path: String, mode: UInt32)
    /// A file the bridge trusts (`what`: "token file", "MQTT password file", "config
    /// file"), or the directory holding it (`isDirectory`), can be written by its
    /// group or by everyone: whoever can write the token points the house at another account.
    case writableByOthers(what: String, path: String, mode: UInt32, isDirectory: Bool)

    public var description: String {
        switch self {
        case .tokenFileReadableByOthers(let path, let mode):
            return "token file \(path) is readable by other users (mode \(OctalText.format(mode))); "
                + "run: chmod 600 \(path)"
        case .passwordFileReadableByOthers(let path, let mode):
            return "password file \(path) is readable by other users (mode \(OctalText.format(mode))); "
                + "run: chmod 600 \(path)"
        case .writableByOthers(let what, let path, let mode, let isDirectory):
            let whom = mode & 0o002 != 0 ? "every user" : "its group"
            let subject = isDirectory ? "the directory \(path) of the \(what)" : "\(what) \(path)"
            let risk = isDirectory ? "replace the \(what) in it" : "rewrite it"
            return "\(subject) is writable by \(whom) (mode \(OctalText.format(mode))): another user could \(risk) "
                + "(\(Self.consequence(of: what))); run: chmod go-w \(path)"
        }
    }

    private static func consequence(of what: String) -> String {
        switch what {
        case "token file": return "and point the bridge at another account"
        case "config file": return "and choose what the bridge publishes and where"
        default: return "and choose what the bridge sends"
        }
    }

    /// Warnings when `path` (a file the bridge trusts, named `what`) or its
    /// directory may be written by its group or by everyone. A directory with the
    /// sticky bit (`/tmp`) lets nobody else replace the file; a systemd credential
    /// is systemd's. Nil when the file cannot be examined (its error is said elsewhere).
    static func writable(_ path: String, what: String) -> [CredentialWarning] {
        guard !path.hasPrefix("/run/credentials/"), let mode = FileAccessProbe.permissionBits(path) else { return [] }
        var warnings: [CredentialWarning] = []
        if mode & 0o022 != 0 { warnings.append(.writableByOthers(what: what, path: path, mode: mode, isDirectory: false)) }
        let directory = FileAccessProbe.parentDirectory(of: path)
        if let directoryMode = FileAccessProbe.permissionBits(directory), directoryMode & 0o022 != 0, directoryMode & 0o1000 == 0 {
            warnings.append(.writableByOthers(what: what, path: directory, mode: directoryMode, isDirectory: true))
        }
        return warnings
    }

    /// Whether permission bits let the file's group or everyone read it.
    static func isReadableByOthers(mode: UInt32) -> Bool {
        mode & 0o044 != 0
    }

    /// The warnings for the MQTT password file at `path` (`check` and the daemon's start
    /// both use them): readable or writable by others, its directory writable by others.
    static func mqttPasswordFile(_ path: String) -> [CredentialWarning] {
        var warnings: [CredentialWarning] = []
        if let mode = FileAccessProbe.permissionBits(path), isReadableByOthers(mode: mode) {
            warnings.append(.passwordFileReadableByOthers(path: path, mode: mode))
        }
        return warnings + writable(path, what: "MQTT password file")
    }

    /// The warnings for the config file at `path` (`check` and the daemon's start).
    static func configFile(_ path: String) -> [CredentialWarning] {
        writable(path, what: "config file")
    }
}

/// Formats permission bits as "0644".
enum OctalText {
    static func format(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
