import Glibc
import Synchronization

/// The one thread that owns something (the loop it turns, the log lines it
/// holds), known to every thread without a lock: an atomic word holding that
/// thread's id (0: none). Asked several times a press on the loop's own thread.
public final class OwningThread: Sendable {
    private let thread = Atomic<UInt>(0)

    public init() {}

    /// Makes the calling thread the owner unless another one is; whether the
    /// caller owns it now.
    @discardableResult
    public func claim() -> Bool {
        let caller = UInt(pthread_self())
        let (exchanged, owner) = thread.compareExchange(expected: 0, desired: caller, ordering: .acquiringAndReleasing)
        return exchanged || owner == caller
    }

    /// Whether the calling thread is the owner.
    public var isCurrent: Bool {
        let owner = thread.load(ordering: .acquiring)
        return owner != 0 && pthread_equal(pthread_t(owner), pthread_self()) != 0
    }

    /// Lets go (the owner, once done): what it did before is seen by the next
    /// thread to claim it.
    public func release() {
        thread.store(0, ordering: .releasing)
    }
}
