import Glibc
import ShellSupport

/// Speaks systemd's sd_notify protocol (no libsystemd): one datagram of
/// newline-separated `KEY=value` assignments to `$NOTIFY_SOCKET`.
///
/// When the process does not run under systemd (no `$NOTIFY_SOCKET`), every call is a
/// no-op. Failures are thrown as `SystemdNotifyError`, never a crash.
public struct SystemdNotifier: Sendable {
    /// Where datagrams go; nil when not started by systemd with `Type=notify`.
    public let socketAddress: NotifySocketAddress?
    /// The watchdog interval (`WatchdogSec=`) in microseconds, nil when the watchdog is
    /// off or meant for another process. Send `watchdog()` at least every half of it.
    public let watchdogIntervalUs: UInt64?

    /// A notifier that never sends anything.
    public static let disabled = SystemdNotifier(socketAddress: nil, watchdogIntervalUs: nil)

    /// Creates a notifier with an explicit address and watchdog interval.
    public init(socketAddress: NotifySocketAddress?, watchdogIntervalUs: UInt64?) {
        self.socketAddress = socketAddress
        self.watchdogIntervalUs = watchdogIntervalUs
    }

    /// Reads `$NOTIFY_SOCKET`, `$WATCHDOG_USEC` and `$WATCHDOG_PID` from `environment`.
    ///
    /// Throws when `$NOTIFY_SOCKET` is set but unusable (e.g. a `vsock:` address).
    public init(
        environment: [String: String] = ProcessEnvironment.current,
        processID: Int32 = getpid()
    ) throws(SystemdNotifyError) {
        let notifySocket = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        self.socketAddress = try notifySocket.map { value throws(SystemdNotifyError) in
            try NotifySocketAddress(parsing: value)
        }
        self.watchdogIntervalUs = Self.watchdogInterval(environment: environment, processID: processID)
    }

    /// How often to send `watchdog()`: half the watchdog interval, as systemd advises;
    /// nil when the watchdog is off.
    public var watchdogPetIntervalUs: UInt64? { watchdogIntervalUs.map { $0 / 2 } }

    /// True when messages are actually sent.
    public var isActive: Bool { socketAddress != nil }

    /// `READY=1`: start-up (or a reload) is complete.
    public func ready() throws(SystemdNotifyError) {
        try send(["READY=1"])
    }

    /// `RELOADING=1` with `MONOTONIC_USEC=` (wanted by `Type=notify-reload`, systemd 253+).
    /// Send `ready()` when the reload is done.
    public func reloading(monotonicUs: UInt64? = nil) throws(SystemdNotifyError) {
        let timestampUs = monotonicUs ?? UInt64(MonotonicClock.nowUs())
        try send(["RELOADING=1", "MONOTONIC_USEC=\(timestampUs)"])
    }

    /// `STOPPING=1`: shutdown has begun.
    public func stopping() throws(SystemdNotifyError) {
        try send(["STOPPING=1"])
    }

    /// `STATUS=<text>`, shown by `systemctl status`. Line breaks become spaces.
    public func status(_ text: String) throws(SystemdNotifyError) {
        let oneLine = String(text.map { $0.isNewline ? " " : $0 })
        try send(["STATUS=\(oneLine)"])
    }

    /// `WATCHDOG=1`: call from the loop that does the work, not from a timer thread.
    public func watchdog() throws(SystemdNotifyError) {
        try send(["WATCHDOG=1"])
    }

    /// Sends the assignments as one datagram; does nothing when not under systemd.
    public func send(_ assignments: [String]) throws(SystemdNotifyError) {
        guard let socketAddress else { return }
        let datagram = Array(assignments.joined(separator: "\n").utf8)
        try Self.sendDatagram(datagram, to: socketAddress)
    }

    private static func watchdogInterval(environment: [String: String], processID: Int32) -> UInt64? {
        guard let text = environment["WATCHDOG_USEC"], let intervalUs = UInt64(text), intervalUs > 0 else {
            return nil
        }
        if let pidText = environment["WATCHDOG_PID"], Int32(pidText) != processID {
            return nil
        }
        return intervalUs
    }

    private static func sendDatagram(_ datagram: [UInt8], to address: NotifySocketAddress) throws(SystemdNotifyError) {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .socketCreationFailed(errno: errno) }
        defer { close(descriptor) }
        let sentByteCount = try address.withSocketAddress { pointer, length in
            datagram.withUnsafeBytes { bytes in
                sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), pointer, length)
            }
        }
        if sentByteCount < 0 { throw .sendFailed(errno: errno) }
        if sentByteCount != datagram.count { throw .sendFailed(errno: EMSGSIZE) }
    }
}
