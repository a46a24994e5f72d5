import Glibc

/// Human-readable text for a C `errno` value.
enum SystemErrorText {
    /// "No such file or directory (errno 2)".
    static func describe(_ errorNumber: Int32) -> String {
        guard let text = strerror(errorNumber) else { return "errno \(errorNumber)" }
        return "\(String(cString: text)) (errno \(errorNumber))"
    }
}
