import Glibc

/// What a process's open file descriptors are, summed by kind: TCP sockets by
/// peer port and state (from /proc/net/tcp), other sockets, pipes, files. Says
/// what a leaked fd is.
enum FDCensus {
    /// How many fds of each kind (`"tcp→broker ESTABLISHED"`, `"socket"`, `"log"`, ...).
    static func counts(pid: pid_t, portNames: [Int: String]) -> [String: Int] {
        let tcp = tcpSockets()
        var counts: [String: Int] = [:]
        for fd in ProcFile.entries(of: "/proc/\(pid)/fd") {
            counts[kind(of: "/proc/\(pid)/fd/\(fd)", tcp: tcp, portNames: portNames), default: 0] += 1
        }
        return counts
    }

    /// `"log ×2, socket ×6, tcp→broker ESTABLISHED ×1, ..."`.
    static func describe(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
    }

    private static func kind(of link: String, tcp: [String: (port: Int, state: String)], portNames: [Int: String]) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        let length = readlink(link, &buffer, buffer.count - 1)
        guard length > 0 else { return "?" }
        let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if target.hasPrefix("socket:[") {
            let inode = String(target.dropFirst("socket:[".count).dropLast())
            guard let socket = tcp[inode] else { return "socket" }
            return "tcp→\(portNames[socket.port] ?? String(socket.port)) \(socket.state)"
        }
        if target.hasPrefix("pipe:") { return "pipe" }
        if target.hasSuffix(".log") { return "log" }
        return target
    }

    /// Inode → remote port and state, from /proc/net/tcp (IPv4 loopback is all the soak uses).
    private static func tcpSockets() -> [String: (port: Int, state: String)] {
        let states = ["01": "ESTABLISHED", "02": "SYN_SENT", "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT",
                      "09": "LAST_ACK", "0A": "LISTEN", "04": "FIN_WAIT1", "05": "FIN_WAIT2", "0B": "CLOSING"]
        var sockets: [String: (port: Int, state: String)] = [:]
        for line in (ProcFile.read("/proc/net/tcp") ?? "").split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, let colon = fields[2].lastIndex(of: ":"),
                  let port = Int(fields[2][fields[2].index(after: colon)...], radix: 16) else { continue }
            sockets[String(fields[9])] = (port, states[String(fields[3])] ?? String(fields[3]))
        }
        return sockets
    }
}
