import Glibc

/// The process's environment variables, read from `environ` (no Foundation needed).
public enum ProcessEnvironment {
    /// Every `NAME=value` of the environment; the first of a repeated name wins.
    public static var current: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
