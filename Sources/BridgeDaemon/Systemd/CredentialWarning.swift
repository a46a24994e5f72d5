/// Something about a loaded credential that a person should fix; the daemon logs it.
public enum CredentialWarning: Equatable, Sendable, CustomStringConvertible {
    /// The token file can be read by its group or by everyone (`mode` is the
    /// permission bits, e.g. `0o644`).
    case tokenFileReadableByOthers(path: String, mode: UInt32)
    /// The MQTT password file (`mqtt.password_file`) can be read by its group or by everyone.
    case passwordFileReadableByOthers(path: String, mode: UInt32)

    public var description: String {
        switch self {
        case .tokenFileReadableByOthers(let path, let mode):
            return "token file \(path) is readable by other users (mode \(OctalText.format(mode))); "
                + "run: chmod 600 \(path)"
        case .passwordFileReadableByOthers(let path, let mode):
            return "password file \(path) is readable by other users (mode \(OctalText.format(mode))); "
                + "run: chmod 600 \(path)"
        }
    }

    /// Whether permission bits let the file's group or everyone read it.
    static func isReadableByOthers(mode: UInt32) -> Bool {
        mode & 0o044 != 0
    }

    /// The warning for the MQTT password file at `path` (`check` and the daemon's start
    /// both use it), nil when only its owner may read it or it cannot be examined.
    static func mqttPasswordFile(_ path: String) -> CredentialWarning? {
        guard let mode = FileAccessProbe.permissionBits(path), isReadableByOthers(mode: mode) else { return nil }
        return .passwordFileReadableByOthers(path: path, mode: mode)
    }
}

/// Formats permission bits as "0644".
enum OctalText {
    static func format(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
