import CCurl
import ShellSupport
import Synchronization

/// One transfer on a `CurlMulti`: its easy handle and what to do when it ends
/// (with curl's result code), called on the loop's thread.
final class CurlTransfer {
    let easy: CurlEasy
    let finished: (CURLcode) -> Void
    /// A CONNECT_ONLY transfer: it stays on the multi handle once done (removing it
    /// closes the connection it made), until `CurlMulti.remove`.
    let keepsConnection: Bool

    init(easy: CurlEasy, keepsConnection: Bool = false, finished: @escaping (CURLcode) -> Void) {
        self.easy = easy
        self.keepsConnection = keepsConnection
        self.finished = finished
    }
}

/// libcurl's multi interface as a `LoopSource`: every transfer of the process (the
/// event stream, the PATCHes) on one multi handle, so on one connection cache (kept
/// alive) and on the one `EventLoop`. libcurl says through CURLMOPT_SOCKETFUNCTION
/// which sockets to watch and through CURLMOPT_TIMERFUNCTION when to call it anyway;
/// the loop polls those sockets with its others, its wait bounded by that deadline,
/// and hands readiness back through `curl_multi_socket_action`.
///
/// Driven by the caller's loop (`init(on:)`, the daemon's one loop) or by the loop of
/// a `LoopThread` (`onOwnThread()`, tests and tools). Everything that touches
/// libcurl runs on the loop's thread; other threads hand work over with `onLoop`.
/// Host names are never resolved by libcurl (its threaded resolver is joined inside
/// `curl_multi_socket_action` when a lookup is slow: issue 38 item 6): the clients
/// look them up with `NameResolver` first and hand libcurl CURLOPT_RESOLVE.
public final class CurlMulti: LoopSource, @unchecked Sendable {
    /// The loop that drives this multi handle.
    public let loop: EventLoop
    private let multi: UnsafeMutableRawPointer
    /// Loop thread only: the sockets libcurl wants watched (CURL_POLL_* per socket).
    private var sockets: [Int32: Int32] = [:] {
        didSet { areInterestsStale = true }
    }
    /// Loop thread only: `sockets` as the loop's interests, made again only after
    /// libcurl changed them (not on every turn).
    private var interests: [LoopInterest] = []
    private var areInterestsStale = false
    /// Loop thread only: when libcurl wants `socket_action(CURL_SOCKET_TIMEOUT)`.
    private var timerDeadlineMs: Int64?
    /// Loop thread only: libcurl's last timer asked for a call at once (0 ms).
    private var isTimerImmediate = false
    /// Loop thread only: inside `curl_multi_socket_action` (its callbacks may not call it again).
    private var isInLibcurl = false
    /// Loop thread only: handing out completions (`finishDoneTransfers`).
    private var isFinishing = false
    /// Loop thread only: the transfers on the handle, by easy handle.
    private var transfers: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var isClosed = false
    /// Work other threads handed to the loop, bounded (the resolver's thread, a
    /// tool's or test's threads, and the loop's thread share it).
    private let commands = ConditionLock(Commands())
    /// Set after work is handed over or a close asked for, cleared by the loop
    /// before it takes them: a turn with nothing handed over (every turn of the
    /// daemon but a lookup's answer) takes no lock.
    private let hasCommands = Atomic<Bool>(false)
    /// `onOwnThread()`'s thread turning `loop` (set before the handle is shared).
    private var ownThread: LoopThread?

    struct Commands {
        var work: [@Sendable () -> Void] = []
        var isClosing = false
    }

    /// Most work items waiting for the loop; beyond, `onLoop` refuses.
    static let maxQueuedCommands = 256

    /// A multi handle on `loop`, which turns on the caller's thread (add the handle
    /// before the loop first turns, or on its thread).
    public init(on loop: EventLoop) throws(CurlError) {
        CurlLibrary.initializeOnce()
        guard let multi = curl_multi_init() else { throw CurlError("curl_multi_init", message: "out of memory") }
        self.multi = multi
        self.loop = loop
        let context = Unmanaged.passUnretained(self).toOpaque()
        do {
            try Self.check("socket function", sb_curl_multi_setopt_socket_function(multi, Self.socketCallback, context))
            try Self.check("timer function", sb_curl_multi_setopt_timer_function(multi, Self.timerCallback, context))
        } catch {
            curl_multi_cleanup(multi)
            throw error
        }
        loop.add(self)
    }

    /// A multi handle on the loop of a `LoopThread` of its own, until `close()`.
    public static func onOwnThread() throws(CurlError) -> CurlMulti {
        let thread: LoopThread
        do { thread = try LoopThread() } catch { throw CurlError("event loop", message: "\(error)") }
        do {
            let multi = try thread.perform { try CurlMulti(on: thread.loop) }
            multi.ownThread = thread
            return multi
        } catch {
            thread.stop()
            throw (error as? CurlError) ?? CurlError("event loop", message: "\(error)")
        }
    }

    deinit {
        guard !isClosed else { return }
        for easy in transfers.keys { curl_multi_remove_handle(multi, easy) }
        curl_multi_cleanup(multi)
    }

    /// Runs `work` on the loop's thread: at once when called there, else at the loop's
    /// next turn (the loop is woken). False when refused (closed, or too much waiting).
    @discardableResult
    public func onLoop(_ work: @escaping @Sendable () -> Void) -> Bool {
        if loop.isOnLoopThread {
            guard !isClosed else { return false }
            work()
            return true
        }
        let accepted = commands.withLock { state -> Bool in
            guard !state.isClosing, state.work.count < Self.maxQueuedCommands else { return false }
            state.work.append(work)
            return true
        }
        guard accepted else { return false }
        hasCommands.store(true, ordering: .releasing)
        loop.wake()
        return true
    }

    /// Ends every transfer without its completion and frees the handle; later work is
    /// refused. On its own loop: from any thread but that loop's, after the work
    /// already handed over, and ends the thread. On the caller's: call it on the
    /// loop's thread.
    public func close() {
        commands.withLock { $0.isClosing = true }
        hasCommands.store(true, ordering: .releasing)
        guard let ownThread else { return cleanUp() }
        ownThread.perform { [self] in
            _ = runCommands()  // the work handed over before the close
            cleanUp()
        }
        ownThread.stop()
    }

    private func cleanUp() {
        guard !isClosed else { return }
        for easy in transfers.keys { curl_multi_remove_handle(multi, easy) }
        transfers = [:]
        sockets = [:]
        timerDeadlineMs = nil
        isTimerImmediate = false
        curl_multi_cleanup(multi)
        isClosed = true
        loop.remove(self)
    }

    /// Starts a transfer (loop thread only). libcurl asks to be called at once for a
    /// transfer just added (its timer at 0): it is, here, rather than after the loop's
    /// next poll (a PATCH on the kept-alive connection goes out now: one poll and one
    /// turn fewer per PATCH). Not from inside libcurl (a callback): the timer then
    /// waits for the next turn, as before.
    func add(_ transfer: CurlTransfer) throws(CurlError) {
        guard !isClosed else { throw CurlError("transfer", message: "client stopped") }
        try Self.check("add transfer", curl_multi_add_handle(multi, transfer.easy.handle))
        transfers[transfer.easy.handle] = transfer
        guard isTimerImmediate, !isInLibcurl else { return }
        runTimer()
        // A transfer finished by this call is handed its result now, unless the
        // completions are being handed out already (the loop there reads it too).
        if !isFinishing { finishDoneTransfers() }
    }

    /// Ends a transfer without its completion, or closes a done CONNECT_ONLY
    /// transfer's connection (loop thread only).
    func remove(_ transfer: CurlTransfer) {
        guard transfers.removeValue(forKey: transfer.easy.handle) != nil else { return }
        curl_multi_remove_handle(multi, transfer.easy.handle)
    }

    // MARK: LoopSource

    public func loopWants(nowMs: Int64) -> LoopWants {
        // Work handed over may have added a source or changed another's wants, which
        // this turn asked already; closing, the owning thread must see it is done:
        // either way this turn must not wait.
        if runCommands() { return LoopWants(deadlineMs: nowMs) }
        if isClosed { return LoopWants() }
        if areInterestsStale {
            interests = sockets.map { socket, what in
                LoopInterest(descriptor: socket, wantsWrite: what & CURL_POLL_OUT != 0, wantsRead: what & CURL_POLL_IN != 0)
            }
            areInterestsStale = false
        }
        return LoopWants(interests: interests, deadlineMs: timerDeadlineMs)
    }

    public func loopService(ready: [LoopReadiness], nowMs: Int64) {
        guard !isClosed else { return }
        var running: Int32 = 0
        isInLibcurl = true
        for readiness in ready {
            let bits = (readiness.isReadable ? CURL_CSELECT_IN : 0) | (readiness.isWritable ? CURL_CSELECT_OUT : 0)
            _ = curl_multi_socket_action(multi, readiness.descriptor, bits, &running)
        }
        isInLibcurl = false
        if let deadline = timerDeadlineMs, nowMs >= deadline { runTimer() }
        finishDoneTransfers()
    }

    /// Calls libcurl for its timer, now (it is due, or asked for at once).
    private func runTimer() {
        var running: Int32 = 0
        timerDeadlineMs = nil
        isTimerImmediate = false
        isInLibcurl = true
        _ = curl_multi_socket_action(multi, sb_curl_socket_timeout, 0, &running)
        isInLibcurl = false
        if timerDeadlineMs == nil { rearmTimer() }
    }

    /// Runs the work handed over; returns whether there was any, or a close was asked for.
    private func runCommands() -> Bool {
        guard hasCommands.exchange(false, ordering: .acquiringAndReleasing) else { return false }
        let (work, isClosing) = commands.withLock { state in
            defer { state.work = [] }
            return (state.work, state.isClosing)
        }
        for item in work where !isClosed { item() }
        return isClosing || !work.isEmpty
    }

    /// Hands every finished transfer its result (each may start another).
    private func finishDoneTransfers() {
        isFinishing = true
        defer { isFinishing = false }
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = sb_curl_message_result(message)
            guard let transfer = transfers[easy] else { continue }
            if !transfer.keepsConnection {
                transfers[easy] = nil
                curl_multi_remove_handle(multi, easy)
            }
            transfer.finished(code)
        }
    }

    // MARK: libcurl's callbacks (called inside socket_action and add_handle, on the loop's thread)

    private static let socketCallback: sb_curl_socket_callback = { _, socket, what, context, _ in
        guard let context else { return -1 }
        let owner = Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue()
        let wanted: Int32? = what == CURL_POLL_REMOVE ? nil : what
        if owner.sockets[socket] != wanted { owner.sockets[socket] = wanted }
        return 0
    }

    private static let timerCallback: sb_curl_timer_callback = { _, timeoutMs, context in
        guard let context else { return -1 }
        let owner = Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue()
        owner.timerDeadlineMs = timeoutMs < 0 ? nil : deadlineMs(afterMs: timeoutMs, nowMs: MonotonicClock.nowMs())
        owner.isTimerImmediate = timeoutMs == 0
        return 0
    }

    /// When to call libcurl back for a timer `timeoutMs` from now, on the loop's clock
    /// (whole ms, truncated; libcurl's `timeoutMs` is truncated too). Called early,
    /// libcurl finds nothing due and, its next expiry unchanged, calls no timer
    /// function again: so a wait is two ms longer (never early), "at once" (0: a
    /// transfer just added) stays at once, and `rearmTimer` covers the rest.
    public static func deadlineMs(afterMs timeoutMs: Int, nowMs: Int64) -> Int64 {
        timeoutMs <= 0 ? nowMs : nowMs + Int64(timeoutMs) + 2
    }

    /// After a timer fired and libcurl set none: asks it for its next expiry, so a
    /// timer it still holds is never lost.
    private func rearmTimer() {
        var timeoutMs = -1
        guard curl_multi_timeout(multi, &timeoutMs) == CURLM_OK, timeoutMs >= 0 else { return }
        timerDeadlineMs = Self.deadlineMs(afterMs: max(1, timeoutMs), nowMs: MonotonicClock.nowMs())
    }

    private static func check(_ operation: String, _ code: CURLMcode) throws(CurlError) {
        guard code == CURLM_OK else { throw CurlError(operation, multiCode: code) }
    }
}
