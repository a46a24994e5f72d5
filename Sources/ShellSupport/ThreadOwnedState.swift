/// State that one thread at a time touches (the loop's, the thread holding the
/// log's lines), behind a pointer: Swift's dynamic exclusivity check of a class's
/// stored property (a runtime call and an access record each time, ~30 a press
/// in the daemon's loop-only state) is left out, as `ConditionLock` leaves it out
/// for what its mutex guards. What makes each access exclusive is the rule of its
/// owner, said where it is used (which thread, `OwningThread`).
public final class ThreadOwnedState<State>: @unchecked Sendable {
    /// The state: read and changed in place through `pointer.pointee`, on the owning thread.
    public let pointer: UnsafeMutablePointer<State>

    public init(_ initialState: State) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: initialState)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
