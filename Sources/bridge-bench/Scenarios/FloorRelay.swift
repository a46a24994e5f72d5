import Glibc
import ShellSupport

/// The measured side of `--floor`: a press's I/O pattern with no logic at all.
/// Three loopback connections to the bench (the event stream, MQTT, HTTP); an
/// event read on the stream is answered by a 22-byte command on MQTT; once the
/// PUBACK and the echo (26 bytes) are read, a 1,380-byte PATCH goes out on HTTP;
/// its answer is read. After each wake it may touch a working set of `touchLines`
/// cache lines, as a process with a larger footprint would. Exits when the bench
/// closes a connection.
enum FloorRelay {
    static let commandBytes = 22
    static let pubackBytes = 4
    static let echoBytes = 22
    static let acknowledgedBytes = pubackBytes + echoBytes
    static let patchBytes = 1_380
    static let readBufferBytes = 64 << 10
    /// A turn with nothing to read for this long means the bench is gone.
    static let idleLimitMs: Int32 = 10_000

    static let cacheLineBytes = 64
    /// The most lines `--floor` asks a relay to touch after each wake (8 MiB).
    static let maxTouchLines = 131_072

    /// Connects to the bench's three ports and relays until one closes; the exit status.
    /// `touchLines` is within 0...`maxTouchLines` (checked where the arguments are read).
    static func run(ports: [Int], touchLines: Int) -> Int32 {
        let sockets = ports.compactMap { LoopbackPort.connected(port: $0) }
        guard sockets.count == 3 else { return 1 }
        defer { sockets.forEach { close($0) } }
        var workingSet = WorkingSet(lines: touchLines)
        var buffer = [UInt8](repeating: 0, count: readBufferBytes)
        let command = [UInt8](repeating: 0x63, count: commandBytes)
        let patch = [UInt8](repeating: 0x70, count: patchBytes)
        var acknowledged = 0
        var readiness = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while poll(&readiness, nfds_t(readiness.count), idleLimitMs) > 0 {
            workingSet.touch()
            for index in readiness.indices where readiness[index].revents != 0 {
                let count = recv(readiness[index].fd, &buffer, buffer.count, 0)
                guard count > 0 else { return workingSet.exitStatus }
                switch index {
                case 0:
                    acknowledged = 0
                    guard send(sockets[1], command, command.count, Int32(MSG_NOSIGNAL)) == command.count else { return 1 }
                case 1:
                    acknowledged += count
                    if acknowledged == acknowledgedBytes,
                       send(sockets[2], patch, patch.count, Int32(MSG_NOSIGNAL)) != patch.count { return 1 }
                default: break
                }
            }
        }
        return workingSet.exitStatus
    }
}
