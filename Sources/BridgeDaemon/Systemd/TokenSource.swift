/// Where an API token was (or would be) read from.
public enum TokenSource: Equatable, Sendable, CustomStringConvertible {
    /// A systemd credential: `$CREDENTIALS_DIRECTORY/<name>` (`LoadCredential=`).
    case systemdCredential(name: String, path: String)
    /// A token file named in the configuration (`token_file`).
    case file(path: String)
    /// An environment variable named in the configuration (`token_env`).
    case environmentVariable(name: String)

    public var description: String {
        switch self {
        case .systemdCredential(let name, _): return "systemd credential '\(name)'"
        case .file(let path): return "token file \(path)"
        case .environmentVariable(let name): return "environment variable \(name)"
        }
    }
}
