import BridgeCore
import Glibc

/// Why the API token could not be read, with the reason for each source tried
/// and the config setting that chose the source (for `check` and `run`).
enum TokenErrorText {
    struct Described {
        var message: String
        /// The config key that chose the failing source ("aivi.token_file"), if any.
        var settingKey: String?
    }

    static func describe(_ error: CredentialError, config: BridgeConfig) -> Described {
        switch error {
        case .noTokenFound(let tried) where !tried.isEmpty:
            let reasons = tried.map { "\($0) (\(reason($0))\(chosenBy($0, config)))" }
            let missing = tried.compactMap { source -> String? in
                guard case .file(let path) = source, access(path, F_OK) != 0, errno == ENOENT else { return nil }
                return path
            }
            return Described(message: "tried " + reasons.joined(separator: ", ") + (missing.last.map(creationHint) ?? ""),
                             settingKey: tried.last.flatMap(settingKey))
        case .noTokenFound:
            return Described(message: "\(error)", settingKey: nil)
        case .unreadable(let source, _), .refusedFile(let source, _), .tooLarge(let source, _), .empty(let source), .notText(let source),
             .controlCharacter(let source), .badCharacter(let source, _):
            return Described(message: "\(error)\(chosenBy(source, config))",
                             settingKey: settingKey(source))
        }
    }

    /// How to make a missing token file, readable by root only (issue 41): the command,
    /// with `sudo` unless root itself (not through sudo) runs `check`.
    static func creationHint(_ path: String) -> String {
        "; create it, readable by root only, with: \(creationCommand(path)) (paste the token, Enter, then Ctrl-D)"
    }

    /// Whether the person reading needs `sudo`: not root, or root through sudo (their own
    /// shell, where they will paste the command, is not root).
    static var needsSudo: Bool { geteuid() != 0 || getenv("SUDO_USER") != nil }

    static func creationCommand(_ path: String) -> String {
        let quoted = "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
        return (needsSudo ? "sudo " : "") + "sh -c \"umask 077; cat > \(quoted)\""
    }

    /// Why a source that was tried held nothing.
    static func reason(_ source: TokenSource) -> String {
        switch source {
        case .systemdCredential(_, let path):
            // Tried and passed over: absent, or the unit's empty stand-in for a missing file.
            return FileAccessProbe.readProblem(path) == nil ? "empty: the unit's LoadCredential= found no file" : "not found"
        case .file(let path): return FileAccessProbe.readProblem(path) ?? "not found"
        case .environmentVariable: return "not set"
        }
    }

    static func settingKey(_ source: TokenSource) -> String? {
        switch source {
        case .systemdCredential: return nil
        case .file: return "aivi.token_file"
        case .environmentVariable: return "aivi.token_env"
        }
    }

    /// " chosen by aivi.token_file on line 8", or "" for a systemd credential.
    static func chosenBy(_ source: TokenSource, _ config: BridgeConfig) -> String {
        guard let key = settingKey(source) else { return "; from $CREDENTIALS_DIRECTORY" }
        guard let location = config.settingLocations[key] else { return "" }
        return "; chosen by \(key) on line \(location.line)"
    }
}
