import ShellSupport

/// Finds the API token, first source present wins:
/// 1. `$CREDENTIALS_DIRECTORY/<credentialName>` (systemd `LoadCredential=`),
/// 2. the configured token file,
/// 3. the configured environment variable.
///
/// A missing file moves on to the next source; a file that exists but cannot be read is
/// an error. The token is the first line, trimmed of surrounding whitespace.
///
/// An empty (or whitespace-only) systemd credential counts as absent: the unit's
/// `SetCredential=aivi-token:\n` is what systemd passes when `LoadCredential=` finds
/// no file, so a config with `token_file` or `token_env` starts without one.
public struct CredentialLoader: Sendable {
    /// The systemd credential name (`LoadCredential=<name>:...`).
    public var credentialName: String
    /// `aivi.token_file` from the configuration.
    public var tokenFilePath: String?
    /// `aivi.token_env` from the configuration.
    public var tokenEnvironmentVariable: String?
    /// The process environment (injected for tests).
    public var environment: [String: String]

    /// Creates a loader; nothing is read until `load()`.
    public init(
        credentialName: String = "aivi-token",
        tokenFilePath: String?,
        tokenEnvironmentVariable: String?,
        environment: [String: String] = ProcessEnvironment.current
    ) {
        self.credentialName = credentialName
        self.tokenFilePath = tokenFilePath
        self.tokenEnvironmentVariable = tokenEnvironmentVariable
        self.environment = environment
    }

    /// Reads the token from the first source present.
    public func load() throws(CredentialError) -> LoadedToken {
        var tried: [TokenSource] = []
        for source in candidateSources() {
            tried.append(source)
            if let token = try read(source) { return token }
        }
        throw .noTokenFound(tried: tried)
    }

    /// The sources to try, in order.
    public func candidateSources() -> [TokenSource] {
        var sources: [TokenSource] = []
        if let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty {
            let path = directory.hasSuffix("/") ? directory + credentialName : directory + "/" + credentialName
            sources.append(.systemdCredential(name: credentialName, path: path))
        }
        if let tokenFilePath, !tokenFilePath.isEmpty { sources.append(.file(path: tokenFilePath)) }
        if let tokenEnvironmentVariable, !tokenEnvironmentVariable.isEmpty {
            sources.append(.environmentVariable(name: tokenEnvironmentVariable))
        }
        return sources
    }

    private func read(_ source: TokenSource) throws(CredentialError) -> LoadedToken? {
        switch source {
        case .systemdCredential(_, let path):
            guard let contents = try TokenFileReader.read(path: path, source: source),
                  !Self.isBlank(contents.text) else { return nil }
            return LoadedToken(secret: try Self.token(in: contents.text, source: source), source: source, warnings: [])
        case .file(let path):
            guard let contents = try TokenFileReader.read(path: path, source: source) else { return nil }
            let warnings = Self.permissionWarnings(path: path, mode: contents.mode)
            return LoadedToken(secret: try Self.token(in: contents.text, source: source), source: source, warnings: warnings)
        case .environmentVariable(let name):
            guard let value = environment[name] else { return nil }
            // A variable has no lines: a CR or LF inside it is part of the value, and refused.
            let trimmed = value.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace)
            if trimmed.contains(where: Self.isControl) { throw .controlCharacter(source) }
            return LoadedToken(secret: try Self.token(in: value, source: source), source: source, warnings: [])
        }
    }

    /// True when `text` holds nothing but whitespace (the unit's stand-in for a missing credential).
    static func isBlank(_ text: String) -> Bool {
        text.allSatisfy(\.isWhitespace)
    }

    /// The first line of `text`, trimmed; throws when nothing is left.
    static func token(in text: String, source: TokenSource) throws(CredentialError) -> Secret {
        let firstLine = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? ""
        let trimmed = firstLine.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        guard !trimmed.isEmpty else { throw .empty(source) }
        guard !trimmed.contains(where: isControl) else { throw .controlCharacter(source) }
        let token = String(trimmed)
        if let problem = TokenCharacterProblem.first(in: token) { throw .badCharacter(source, problem) }
        return Secret(token)
    }

    /// C0, DEL or C1: never part of a token.
    static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    private static func permissionWarnings(path: String, mode: UInt32) -> [CredentialWarning] {
        let readable: [CredentialWarning] = CredentialWarning.isReadableByOthers(mode: mode)
            ? [.tokenFileReadableByOthers(path: path, mode: mode & 0o7777)] : []
        return readable + CredentialWarning.writable(path, what: "token file")
    }
}
