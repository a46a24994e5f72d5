import Glibc

/// One descriptor a `LoopSource` wants watched: for reading unless `wantsRead` is
/// false (errors and hang-ups are always reported, as readable), for writing too
/// when `wantsWrite`.
public struct LoopInterest: Sendable, Equatable {
    public var descriptor: Int32
    public var wantsWrite: Bool
    /// False: bytes waiting to be read do not end the wait (a server answering
    /// one request does not read the next before it is done).
    public var wantsRead: Bool

    public init(descriptor: Int32, wantsWrite: Bool, wantsRead: Bool = true) {
        self.descriptor = descriptor
        self.wantsWrite = wantsWrite
        self.wantsRead = wantsRead
    }
}

/// What `poll` said about one watched descriptor.
public struct LoopReadiness: Sendable, Equatable {
    public var descriptor: Int32
    /// Readable, or the peer hung up, or an error is pending: a read will say which.
    public var isReadable: Bool
    public var isWritable: Bool

    public init(descriptor: Int32, isReadable: Bool, isWritable: Bool) {
        self.descriptor = descriptor
        self.isReadable = isReadable
        self.isWritable = isWritable
    }
}

/// What the loop watches now for one source, and when it must be called anyway
/// (a monotonic deadline in ms: a timeout, a keepalive, a retry), nil for never.
public struct LoopWants: Sendable, Equatable {
    public var interests: [LoopInterest]
    public var deadlineMs: Int64?

    public init(interests: [LoopInterest] = [], deadlineMs: Int64? = nil) {
        self.interests = interests
        self.deadlineMs = deadlineMs
    }
}

/// Something the one loop drives: a client's socket, a server's sockets. Both
/// methods are called on the loop's thread only, so a source needs no lock for
/// what only the loop touches.
public protocol LoopSource: AnyObject {
    /// Asked before every wait.
    func loopWants(nowMs: Int64) -> LoopWants
    /// Called after a wait when one of its descriptors was ready or its deadline
    /// has come (`ready` is then empty).
    func loopService(ready: [LoopReadiness], nowMs: Int64)
}

/// The one `poll(2)` loop of a process's shells: every source's descriptors, their
/// deadlines and a wake pipe (a self-pipe) other threads write to when they
/// hand the loop something. `turn` is called on one thread, the loop's; `wake` from
/// any thread (a no-op on the loop's own thread, which looks again before waiting).
public final class EventLoop: @unchecked Sendable {
    /// The wake pipe's ends: the loop watches the first, `wake` writes the second.
    private let wakeDescriptor: Int32
    private let wakeWriteDescriptor: Int32
    /// A wake is written and not yet read: later ones need no syscall.
    private let isWakePending = ConditionLock(false)
    /// Loop thread only.
    private var sources: [LoopSource] = []
    /// Loop thread only: one turn's poll array and, per source, how many of its entries
    /// are its own and its deadline, kept for the next (plain values: the sources'
    /// interest arrays are not held past the poll, nor retained and released per turn).
    private var descriptors: [pollfd] = []
    private var turnWants: [TurnWant] = []
    /// Loop thread only: the readiness handed to one source, its storage kept for the next.
    private var turnReady: [LoopReadiness] = []
    /// Loop thread only: `loopThread` is claimed (it never changes after).
    private var isThreadMarked = false
    /// Loop thread only: a turn is under way (turns never nest: they share the poll array).
    private var isTurning = false
    /// The thread that turns the loop (none until its first turn; never changes after):
    /// asked by every thread (`isOnLoopThread`, several times a press on the loop's own).
    private let loopThread = OwningThread()
    /// The clock the sources' deadlines are read on (its monotonic milliseconds).
    private let clock: BoardClock

    /// An empty loop; throws when the system refuses a pipe.
    public init(clock: BoardClock = .system) throws(EventLoopError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw EventLoopError(operation: "pipe", errorNumber: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeDescriptor = ends[0]
        wakeWriteDescriptor = ends[1]
        self.clock = clock
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriteDescriptor)
    }

    /// Adds a source (on the loop's thread, or before the loop first turns).
    public func add(_ source: LoopSource) {
        guard !sources.contains(where: { $0 === source }) else { return }
        sources.append(source)
    }

    /// Removes a source (on the loop's thread, or once it no longer turns).
    public func remove(_ source: LoopSource) {
        sources.removeAll { $0 === source }
    }

    /// Makes the current or next wait return at once. From any thread.
    public func wake() {
        if isOnLoopThread { return }
        let needsWrite = isWakePending.withLock { pending -> Bool in
            defer { pending = true }
            return !pending
        }
        guard needsWrite else { return }
        var byte: UInt8 = 1
        _ = write(wakeWriteDescriptor, &byte, 1)
    }

    /// Whether the caller is the thread that turns the loop.
    public var isOnLoopThread: Bool { loopThread.isCurrent }

    /// Waits up to `timeoutMs` (negative: until something happens), shortened to the
    /// sources' earliest deadline, then services every source that is ready or due.
    /// Returns whether another thread woke the loop. The poll array and the sources'
    /// wants are kept between turns (no allocation per turn of their own), so a
    /// source's service must never turn the loop again (checked).
    @discardableResult
    public func turn(timeoutMs: Int) -> Bool {
        precondition(!isTurning, "EventLoop.turn from inside a source's service: turns do not nest")
        isTurning = true
        defer { isTurning = false }
        if !isThreadMarked { markLoopThread() }
        let startMs = clock.monotonicMs()
        let turnSources = sources
        // The kept arrays are moved into locals for the turn and back after it (their
        // capacity with them): an append to a class's stored property is a dynamic
        // exclusivity check each time, one per descriptor and source.
        var descriptors: [pollfd] = []
        var turnWants: [TurnWant] = []
        var ready: [LoopReadiness] = []
        swap(&descriptors, &self.descriptors)
        swap(&turnWants, &self.turnWants)
        swap(&ready, &turnReady)
        defer {
            swap(&descriptors, &self.descriptors)
            swap(&turnWants, &self.turnWants)
            swap(&ready, &turnReady)
        }
        turnWants.removeAll(keepingCapacity: true)
        descriptors.removeAll(keepingCapacity: true)
        descriptors.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0))
        var waitMs = timeoutMs
        for source in turnSources {
            let want = source.loopWants(nowMs: startMs)
            for interest in want.interests {
                let events = (interest.wantsRead ? Int16(POLLIN) : 0) | (interest.wantsWrite ? Int16(POLLOUT) : 0)
                descriptors.append(pollfd(fd: interest.descriptor, events: events, revents: 0))
            }
            if let deadline = want.deadlineMs { waitMs = Self.waitMs(timeoutMs: waitMs, deadline: deadline, nowMs: startMs) }
            turnWants.append(TurnWant(interestCount: want.interests.count, deadlineMs: want.deadlineMs))
        }
        let count = poll(&descriptors, nfds_t(descriptors.count), Int32(clamping: waitMs))
        guard count >= 0 else { return false }  // EINTR: the caller turns again
        let isWoken = descriptors[0].revents != 0
        if isWoken { drainWake() }
        let afterMs = clock.monotonicMs()
        var index = 1
        for (source, want) in zip(turnSources, turnWants) {
            ready.removeAll(keepingCapacity: true)
            for _ in 0..<want.interestCount {
                let entry = descriptors[index]
                index += 1
                let revents = entry.revents
                guard revents != 0 else { continue }
                let readable = revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)) != 0
                ready.append(LoopReadiness(descriptor: entry.fd, isReadable: readable,
                                           isWritable: revents & Int16(POLLOUT) != 0))
            }
            let isDue = want.deadlineMs.map { afterMs >= $0 } ?? false
            if !ready.isEmpty || isDue { source.loopService(ready: ready, nowMs: afterMs) }
        }
        return isWoken
    }

    /// The wait: the caller's bound or the earliest deadline, whichever comes first.
    public static func waitMs(timeoutMs: Int, deadlines: [Int64], nowMs: Int64) -> Int {
        deadlines.reduce(timeoutMs) { waitMs(timeoutMs: $0, deadline: $1, nowMs: nowMs) }
    }

    /// The wait `timeoutMs` (negative: none), shortened to `deadline`.
    static func waitMs(timeoutMs: Int, deadline: Int64, nowMs: Int64) -> Int {
        let boundMs = timeoutMs < 0 ? Int64.max : Int64(timeoutMs)
        let (remaining, overflow) = deadline.subtractingReportingOverflow(nowMs)
        let waitMs = min(boundMs, overflow ? (deadline < nowMs ? 0 : Int64.max) : max(0, remaining))
        return waitMs == Int64.max ? -1 : Int(min(waitMs, Int64(Int32.max)))
    }

    /// What a turn keeps of one source's wants: its entries in the poll array (in
    /// order after the previous source's) and its deadline.
    private struct TurnWant {
        var interestCount: Int
        var deadlineMs: Int64?
    }

    private func markLoopThread() {
        loopThread.claim()
        isThreadMarked = true
    }

    /// Empties the pipe first, then clears the flag: a wake between the two finds
    /// the flag still set and writes nothing, and what it handed over is taken by
    /// the caller after this turn. (One byte per pending flag: a few reads at most.)
    private func drainWake() {
        var bytes = (UInt64(0), UInt64(0))
        while read(wakeDescriptor, &bytes, MemoryLayout.size(ofValue: bytes)) > 0 {}
        isWakePending.withLock { $0 = false }
    }
}

/// The system refused what the loop needs.
public struct EventLoopError: Error, Sendable, CustomStringConvertible {
    public let operation: String
    public let errorNumber: Int32
    public var description: String { "\(operation) failed: \(String(cString: strerror(errorNumber)))" }
}
