import Glibc

/// The write end of the process's signal pipe, read by the handler (set before any
/// handler is installed, never changed after).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The whole signal handler: one byte, the signal's number, into the pipe
/// (`write` is async-signal-safe; errno is kept for the interrupted code).
private func writeSignalToPipe(_ signal: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = savedErrno
}

/// SIGTERM, SIGINT and SIGHUP as a `LoopSource` (a self-pipe: the Glibc module has
/// no signalfd), so each signal is handled on the loop's thread like any other
/// input and no thread waits for them. The signals are blocked in every thread
/// (`blockHandledSignals` first thing in `main`) and unblocked on the loop's thread
/// alone at its first turn: the kernel delivers them there (interrupting its
/// `poll`), and one that came earlier is pending, not lost. One per process.
public final class SignalSource: LoopSource {
    /// The signals the daemon handles.
    public static let handledSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]
    /// At most this many signals are read in one pass (a flood waits for the next).
    static let maxSignalsPerPass = 16
    /// The pipe's ends, made once for the process.
    private static let pipeEnds = ConditionLock<(read: Int32, write: Int32)?>(nil)

    private let readDescriptor: Int32
    /// What it asks of every turn, made once (its pipe never changes): an array
    /// allocated a turn otherwise.
    private let wants: LoopWants
    private let onSignal: (Int32) -> Void
    private var isUnblockedOnLoopThread = false

    /// Blocks the handled signals in the calling thread and every thread it
    /// starts afterwards. Call first thing in `main`.
    public static func blockHandledSignals() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// A source calling `onSignal` (on the loop's thread) with each handled signal's
    /// number; throws when the system refuses the pipe.
    public init(onSignal: @escaping (Int32) -> Void) throws(EventLoopError) {
        readDescriptor = try Self.openPipe()
        wants = LoopWants(interests: [LoopInterest(descriptor: readDescriptor, wantsWrite: false)])
        self.onSignal = onSignal
        for signal in Self.handledSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { writeSignalToPipe($0) }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }

    deinit {
        for signal in Self.handledSignals { _ = Glibc.signal(signal, SIG_DFL) }
    }

    private static func openPipe() throws(EventLoopError) -> Int32 {
        let ends = pipeEnds.withLock { ends -> (read: Int32, write: Int32)? in
            if let ends { return ends }
            var pair: [Int32] = [-1, -1]
            guard pipe(&pair) == 0 else { return nil }
            for end in pair {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
            signalPipeWriteEnd = pair[1]
            ends = (pair[0], pair[1])
            return ends
        }
        guard let ends else { throw EventLoopError(operation: "pipe", errorNumber: errno) }
        return ends.read
    }

    public func loopWants(nowMs: Int64) -> LoopWants {
        if !isUnblockedOnLoopThread {
            isUnblockedOnLoopThread = true
            var set = Self.signalSet()
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
        return wants
    }

    public func loopService(ready: [LoopReadiness], nowMs: Int64) {
        var numbers = [UInt8](repeating: 0, count: Self.maxSignalsPerPass)
        let count = read(readDescriptor, &numbers, numbers.count)
        guard count > 0 else { return }
        for number in numbers.prefix(count) { onSignal(Int32(number)) }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handledSignals { sigaddset(&set, signal) }
        return set
    }
}
