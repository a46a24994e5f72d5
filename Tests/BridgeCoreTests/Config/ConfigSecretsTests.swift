import Testing
@testable import BridgeCore

/// Issue 12 (lower, secrets): a config line echoed under an error never shows
/// a secret; an `api` URL carrying user info is refused.
@Suite struct ConfigSecretsTests {
    static let rest = "widgets:\n  - slug: w\n    actions:\n      - id: a\n        label: A\n        publish: {topic: t}\n"

    @Test(arguments: [
        ("aivi:\n  token_env: A\n  password: hunter2-very-secret\n", "hunter2-very-secret"),
        ("aivi: {token_env: A, api_key: s3cr3t-value, x: 1}\n", "s3cr3t-value"),
        ("aivi:\n  token_env: A\n  api: 'https://bob:pa55word@api.example'\n", "pa55word"),
        ("mqtt:\n  mqtt_password: hunter2-very-secret\naivi:\n  token_env: A\n", "hunter2-very-secret"),
    ])
    func anEchoedLineMasksTheSecret(head: String, secret: String) {
        let result = ConfigLoader.load(text: head + Self.rest, fileName: "bridge.yaml")
        #expect(result.config == nil, "\(result.rendered())")
        #expect(!result.rendered().contains(secret), "\(result.rendered())")
        #expect(result.rendered().contains("*****"), "\(result.rendered())")
    }

    @Test func theCaretStillPointsAtItsColumn() {
        #expect(SecretMask.masked("  password: abc # note") == "  password: *** # note")
        #expect(SecretMask.masked("  token_file: /run/x") == "  token_file: /run/x", "a path is not a secret")
        #expect(SecretMask.masked("api: https://u:p@h/x") == "api: https://***@h/x")
    }

    /// Issue 41 §2: `tokenfile:` (a typo of token_file) echoed its path as `*****`, so
    /// the line under "unknown key" showed nothing to compare. A key naming a place is
    /// echoed as written; a secret still is not.
    @Test(arguments: ["tokenfile", "token-file", "tokenpath", "password_dir", "tokenenv"])
    func aMisspeltPathKeyIsEchoedUnmasked(key: String) {
        let result = ConfigLoader.load(text: "aivi:\n  token_env: A\n  \(key): /etc/switchboard-bridge/aivi-token\n" + Self.rest,
                                       fileName: "bridge.yaml")
        #expect(result.config == nil)
        #expect(result.rendered().contains("  \(key): /etc/switchboard-bridge/aivi-token\n"), "\(result.rendered())")
        #expect(!result.rendered().contains("*****"), "\(result.rendered())")
        #expect(SecretMask.masked("  tokenvalue: abc") == "  tokenvalue: ***")
    }

    @Test(arguments: ["https://bob@api.example", "https://bob:pw@api.example/", "http://127.0.0.1@evil.example"])
    func anAPIURLWithUserInfoIsRefused(api: String) {
        let result = ConfigLoader.load(text: "aivi: {token_env: A, api: '\(api)'}\n" + Self.rest, fileName: "bridge.yaml")
        #expect(result.config == nil)
        #expect(result.errors.contains { $0.message.contains("must not carry a user name or password") }, "\(result.rendered())")
    }
}
