import ShellSupport

/// Loopback ports for tests: ShellSupport's `LoopbackPort`, the one mechanism the
/// shells use too, with "no free port" as a test's error instead of nil.
public enum LoopbackPort {
    /// A port that was free on 127.0.0.1 a moment ago (bound to port 0, then closed).
    public static func free() throws -> Int {
        guard let port = ShellSupport.LoopbackPort.free() else { throw TestSupportError("no free loopback port") }
        return port
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` right now.
    public static func accepts(_ port: Int) -> Bool { ShellSupport.LoopbackPort.canConnect(port: port) }
}
