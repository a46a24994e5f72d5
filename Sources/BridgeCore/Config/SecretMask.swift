/// Hides secrets in a config line before it is echoed under a diagnostic (on
/// a terminal, in the journal): the value of any key that looks like it holds
/// a secret (password, token, secret, credential, api key; not the keys naming a
/// place, ending in `file`, `path`, `dir` or `env`, which hold paths and variable names,
/// even misspelt as `tokenfile`), and the user info of a URL (`https://user:pw@host`).
/// Each hidden character becomes `*`, so the caret still points at its column.
public enum SecretMask {
    static let secretWords = ["password", "passwd", "secret", "token", "credential", "apikey", "api_key", "private_key"]

    /// `line` with secret values and URL user info replaced by `*`.
    public static func masked(_ line: String) -> String {
        var scalars = Array(line.unicodeScalars)
        maskSecretValues(&scalars)
        maskURLUserInfo(&scalars)
        return String(String.UnicodeScalarView(scalars))
    }

    /// After each `key:` whose key looks secret, the value up to `,`, `}`, ` #` or the end.
    private static func maskSecretValues(_ scalars: inout [Unicode.Scalar]) {
        var index = 0
        while index < scalars.count {
            guard scalars[index] == ":", index + 1 == scalars.count || scalars[index + 1] == " " else { index += 1; continue }
            let key = keyBefore(colon: index, in: scalars)
            index += 1
            guard isSecretKey(key) else { continue }
            while index < scalars.count, scalars[index] == " " { index += 1 }
            while index < scalars.count, scalars[index] != ",", scalars[index] != "}",
                  !(scalars[index] == "#" && scalars[index - 1] == " ") {
                if scalars[index] != " " { scalars[index] = "*" }
                index += 1
            }
        }
    }

    private static func keyBefore(colon: Int, in scalars: [Unicode.Scalar]) -> String {
        var start = colon
        while start > 0, !" {,\"'-".unicodeScalars.contains(scalars[start - 1]) { start -= 1 }
        return String(String.UnicodeScalarView(scalars[start..<colon])).lowercased()
    }

    /// Endings of keys that name where a secret is, not the secret (issue 41: `tokenfile:`
    /// echoed its path as `*****`).
    static let placeSuffixes = ["file", "path", "dir", "env"]

    static func isSecretKey(_ key: String) -> Bool {
        guard !placeSuffixes.contains(where: key.hasSuffix) else { return false }
        let keyBytes = Array(key.utf8)
        return secretWordBytes.contains { word in Self.bytes(keyBytes, contain: word) }
    }

    private static let secretWordBytes = secretWords.map { Array($0.utf8) }

    /// A plain byte search: a line can hold 100,000 keys, and `String.contains(_:)` sets up
    /// a searcher per call (1.2 s for a 1 MiB line of keys).
    private static func bytes(_ haystack: [UInt8], contain needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    /// `scheme://user:password@host`: everything between `://` and `@` in the authority.
    private static func maskURLUserInfo(_ scalars: inout [Unicode.Scalar]) {
        var index = 0
        while index + 2 < scalars.count {
            guard scalars[index] == ":", scalars[index + 1] == "/", scalars[index + 2] == "/" else { index += 1; continue }
            let start = index + 3
            var end = start
            while end < scalars.count, !"/ ?#'\"".unicodeScalars.contains(scalars[end]) { end += 1 }
            if let at = scalars[start..<end].lastIndex(of: "@") {
                for position in start..<at { scalars[position] = "*" }
            }
            index = end
        }
    }
}
