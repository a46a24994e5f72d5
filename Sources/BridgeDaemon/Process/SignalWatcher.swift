import Glibc
import ShellSupport

/// Turns SIGTERM, SIGINT and SIGHUP into calls on an ordinary thread (sigwait),
/// so nothing runs inside a signal handler.
public enum SignalWatcher {
    /// The signals the daemon handles.
    public static let handledSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// Blocks the handled signals in the calling thread and every thread it
    /// starts afterwards. Call first thing in `main`.
    public static func blockHandledSignals() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the watcher thread; `onSignal` gets each signal number.
    public static func start(onSignal: @escaping @Sendable (Int32) -> Void) throws(ShellThreadError) {
        _ = try ShellThread {
            var set = signalSet()
            while true {
                var signal: Int32 = 0
                if sigwait(&set, &signal) == 0 { onSignal(signal) }
            }
        }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handledSignals { sigaddset(&set, signal) }
        return set
    }
}
