/// An API token with where it came from and what is wrong around it.
public struct LoadedToken: Sendable, Equatable {
    /// The token, redacted when printed.
    public let secret: Secret
    /// Where it was read from.
    public let source: TokenSource
    /// Problems to log as warnings (e.g. a token file readable by others).
    public let warnings: [CredentialWarning]

    public init(secret: Secret, source: TokenSource, warnings: [CredentialWarning]) {
        self.secret = secret
        self.source = source
        self.warnings = warnings
    }
}
