import Glibc

/// What one name lookup found: the addresses (numeric text, IPv6 without
/// brackets, at most `NameResolver.maxAddresses`), or why there are none.
public enum NameLookup: Sendable, Equatable {
    case addresses([String])
    case failure(String)
}

/// Looks host names up off the loop (issue 38 item 6: no name lookup may block the
/// loop). One detached thread, started when a name is queued and ended when none is
/// left, runs `getaddrinfo` for a bounded queue of names, one at a time; each answer goes to its callers' completions on that thread (the
/// caller hands it to its loop: `CurlMulti.onLoop`, which wakes the loop through its
/// wake pipe). Answers are kept `ttlMs` (at most `maxCachedNames` names), so a
/// request to a name looked up a moment ago connects at once. A stop never waits for
/// a lookup: the thread is detached and its late answer is dropped by whoever asked.
///
/// Tests slow every lookup down with `SWITCHBOARD_FAULT_LOOKUP_DELAY_MS` (read here
/// only, clamped to 0-60,000 ms), as a slow DNS server would.
public final class NameResolver: @unchecked Sendable {
    struct Pending {
        var name: String
        var completions: [@Sendable (NameLookup) -> Void]
    }

    struct Cached {
        var lookup: NameLookup
        var expiresAtMs: Int64
    }

    struct State {
        var queue: [Pending] = []
        var cache: [String: Cached] = [:]
        var isThreadStarted = false
        /// How many lookups ran (tests).
        var lookupCount = 0
    }

    /// The environment variable that delays every lookup (tests only).
    public static let faultDelayVariable = "SWITCHBOARD_FAULT_LOOKUP_DELAY_MS"
    public static let maxFaultDelayMs = 60_000
    /// Most addresses kept of one answer.
    public static let maxAddresses = 4

    /// The process's resolver, its delay read from the environment.
    public static let shared = NameResolver(lookupDelayMs: faultDelayMs(getenv(faultDelayVariable).map { String(cString: $0) }))

    public let ttlMs: Int64
    public let maxQueuedNames: Int
    public let maxCallersPerName: Int
    public let maxCachedNames: Int
    public let lookupDelayMs: Int
    private let state = ConditionLock(State())

    public init(ttlMs: Int64 = 60_000, maxQueuedNames: Int = 16, maxCallersPerName: Int = 64, maxCachedNames: Int = 64,
                lookupDelayMs: Int = 0) {
        self.ttlMs = max(0, ttlMs)
        self.maxQueuedNames = max(1, maxQueuedNames)
        self.maxCallersPerName = max(1, maxCallersPerName)
        self.maxCachedNames = max(1, maxCachedNames)
        self.lookupDelayMs = min(max(0, lookupDelayMs), Self.maxFaultDelayMs)
    }

    /// The fault delay `text` asks for, clamped; 0 when absent or not a number.
    public static func faultDelayMs(_ text: String?) -> Int {
        guard let text, let delayMs = Int(text) else { return 0 }
        return min(max(0, delayMs), maxFaultDelayMs)
    }

    /// The addresses of `name` found less than `ttlMs` ago, nil when none are kept.
    public func cached(_ name: String, nowMs: Int64 = MonotonicClock.nowMs()) -> [String]? {
        state.withLock { state in
            guard let entry = state.cache[name], nowMs < entry.expiresAtMs, case .addresses(let addresses) = entry.lookup
            else { return nil }
            return addresses
        }
    }

    /// Waits the fault delay (none unless a test set it): for a lookup made elsewhere
    /// (libmosquitto's, inside its connect on `MQTTClient`'s helper thread), so the
    /// tests slow every lookup of the process alike.
    public func waitFaultDelay() {
        if lookupDelayMs > 0 { Self.sleep(ms: lookupDelayMs) }
    }

    /// How many lookups ran so far (tests).
    public var lookupCount: Int { state.withLock { $0.lookupCount } }

    /// Looks `name` up on the resolver's thread; `completion` runs there once (at
    /// once, on the caller's thread, when the queue is full or no thread can be had).
    /// A name already queued is looked up once for all its callers.
    public func resolve(_ name: String, completion: @escaping @Sendable (NameLookup) -> Void) {
        let outcome = state.withLock { state -> (accepted: Bool, startThread: Bool) in
            if let index = state.queue.firstIndex(where: { $0.name == name }) {
                guard state.queue[index].completions.count < maxCallersPerName else { return (false, false) }
                state.queue[index].completions.append(completion)
                return (true, false)
            }
            guard state.queue.count < maxQueuedNames else { return (false, false) }
            state.queue.append(Pending(name: name, completions: [completion]))
            defer { state.isThreadStarted = true }
            return (true, !state.isThreadStarted)
        }
        guard outcome.accepted else { return completion(.failure("too many name lookups waiting")) }
        guard outcome.startThread else { return }
        do {
            let thread = try ShellThread { [self] in run() }
            thread.detach()
        } catch {
            let dropped = state.withLock { state in
                defer { state.queue = []; state.isThreadStarted = false }
                return state.queue
            }
            for pending in dropped { for done in pending.completions { done(.failure("\(error)")) } }
        }
    }

    /// The thread: takes the oldest name, looks it up, answers its callers; it ends when
    /// the queue is empty (the next `resolve` starts another), so an idle daemon runs no
    /// resolver thread.
    private func run() {
        while let name = nextName() {
            waitFaultDelay()
            let lookup = Self.lookUp(name)
            let completions = state.withLock { state -> [@Sendable (NameLookup) -> Void] in
                state.lookupCount += 1
                if case .addresses = lookup {
                    if state.cache.count >= maxCachedNames, state.cache[name] == nil { state.cache = [:] }
                    state.cache[name] = Cached(lookup: lookup, expiresAtMs: MonotonicClock.nowMs() + ttlMs)
                }
                guard let index = state.queue.firstIndex(where: { $0.name == name }) else { return [] }
                return state.queue.remove(at: index).completions
            }
            for done in completions { done(lookup) }
        }
    }

    /// The oldest queued name, or nil after marking the thread ended when none is queued.
    private func nextName() -> String? {
        state.withLock { state in
            guard let first = state.queue.first else {
                state.isThreadStarted = false
                return nil
            }
            return first.name
        }
    }

    /// `getaddrinfo` for a TCP connection to `name` (IPv4 and IPv6).
    static func lookUp(_ name: String) -> NameLookup {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(name, nil, &hints, &list)
        guard code == 0 else { return .failure("cannot resolve '\(name)': \(String(cString: gai_strerror(code)))") }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var entry = list
        while let current = entry, addresses.count < maxAddresses {
            entry = current.pointee.ai_next
            guard let text = numericText(current.pointee), !addresses.contains(text) else { continue }
            addresses.append(text)
        }
        return addresses.isEmpty ? .failure("cannot resolve '\(name)': no address") : .addresses(addresses)
    }

    private static func numericText(_ info: addrinfo) -> String? {
        info.ai_addr.flatMap { SocketAddress.numericText($0) }
    }

    private static func sleep(ms: Int) {
        var wait = timespec(tv_sec: ms / 1000, tv_nsec: (ms % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&wait, &remaining) != 0, errno == EINTR { wait = remaining }
    }
}
