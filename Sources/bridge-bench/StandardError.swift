import Glibc

/// Lines on standard error (progress and failures), written straight to fd 2.
enum StandardError {
    static func line(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }
}
