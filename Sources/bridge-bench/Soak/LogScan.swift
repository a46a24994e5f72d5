import Glibc

/// Counts lines of a (possibly large) log file that contain each needle.
enum LogScan {
    static func count(_ path: String, _ needles: [String]) -> [Int] {
        var counts = needles.map { _ in 0 }
        guard let file = fopen(path, "r") else { return counts }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 8_192)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            for (index, needle) in needles.enumerated() where line.contains(needle) { counts[index] += 1 }
        }
        return counts
    }
}
