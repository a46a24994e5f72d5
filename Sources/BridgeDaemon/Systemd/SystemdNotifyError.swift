/// Why a message to systemd's notify socket could not be sent.
public enum SystemdNotifyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `$NOTIFY_SOCKET` is neither an absolute path nor an abstract `@name`.
    case unsupportedSocketAddress(String)
    /// The socket path does not fit into `sockaddr_un.sun_path`.
    case socketAddressTooLong(byteCount: Int, limit: Int)
    /// `socket(2)` failed.
    case socketCreationFailed(errno: Int32)
    /// `sendto(2)` failed or sent only part of the datagram.
    case sendFailed(errno: Int32)

    public var description: String {
        switch self {
        case .unsupportedSocketAddress(let address):
            return "NOTIFY_SOCKET '\(address)' is not an absolute path or an abstract '@' socket"
        case .socketAddressTooLong(let byteCount, let limit):
            return "NOTIFY_SOCKET is \(byteCount) bytes long, at most \(limit) fit in a unix socket address"
        case .socketCreationFailed(let errno):
            return "cannot create the notify socket: \(SystemErrorText.describe(errno))"
        case .sendFailed(let errno):
            return "cannot send to the notify socket: \(SystemErrorText.describe(errno))"
        }
    }
}
