/// What is known of each action's device, one slot per action: the config's
/// actions first, in config order (`init(order:keeping:)`), so a widget's
/// template reads its actions' states by slot number (`subscript(slot:)`)
/// instead of hashing two strings per action on every render.
///
/// Read by key like a dictionary. A slot's storage is one array: after the
/// status snapshot shared it, the core's next change copies that array, not a
/// hashed table with its keys.
public struct ActionStates: Sendable, Equatable {
    private var slotValues: [ActionState?] = []
    private var slots: [ActionKey: Int] = [:]
    private var keyOfSlot: [ActionKey] = []
    /// Grows with every change (any write, and every rebuild): a body rendered at
    /// one version is the body of every later moment with the same version, so a
    /// publisher can tell "nothing changed since" without rendering.
    private(set) var version: UInt64 = 0
    /// The slots whose state a first publish waits for (`awaitState(of:)`), and how
    /// many of them are not known yet (no on/off, not known unreachable): kept at
    /// every write, so "all known" is one comparison, not a scan of every action.
    private var isAwaitedSlot: [Bool] = []
    private(set) var unknownAwaitedCount = 0

    /// No states.
    public init() {}

    /// A slot for each key of `order`, in that order, holding its state in
    /// `old` (nil when it had none); then the other keys `old` holds a state
    /// for, so an action the config dropped can still be looked at (a reload
    /// cancels its wait) until the next rebuild.
    init(order: [ActionKey], keeping old: ActionStates) {
        for key in order where slots[key] == nil { append(key, old[key]) }
        for (slot, key) in old.keyOfSlot.enumerated() where slots[key] == nil {
            if let state = old.slotValues[slot] { append(key, state) }
        }
        version = old.version &+ 1
    }

    /// The state of `key`; setting nil forgets it (its slot stays, empty).
    public internal(set) subscript(key: ActionKey) -> ActionState? {
        get { slots[key].flatMap { slotValues[$0] } }
        set {
            version &+= 1
            guard let slot = slots[key] else {
                if let newValue { append(key, newValue) }
                return
            }
            if isAwaitedSlot[slot] {
                unknownAwaitedCount += (Self.isUnknown(newValue) ? 1 : 0) - (Self.isUnknown(slotValues[slot]) ? 1 : 0)
            }
            slotValues[slot] = newValue
        }
    }

    /// Makes `keys` (and only them) the states a first publish waits for; keys
    /// without a slot get one, empty (an unknown state).
    mutating func awaitState(of keys: some Sequence<ActionKey>) {
        isAwaitedSlot = Array(repeating: false, count: slotValues.count)
        unknownAwaitedCount = 0
        for key in keys {
            if slots[key] == nil { append(key, nil) }
            guard let slot = slots[key], !isAwaitedSlot[slot] else { continue }
            isAwaitedSlot[slot] = true
            if Self.isUnknown(slotValues[slot]) { unknownAwaitedCount += 1 }
        }
    }

    /// Whether a state says neither on/off nor that its device is unreachable (nil: none).
    static func isUnknown(_ state: ActionState?) -> Bool {
        state?.isOn == nil && state?.isUnreachable != true
    }

    /// The state in `slot` (what `slot(of:)` said), nil when it holds none.
    subscript(slot slot: Int) -> ActionState? {
        slotValues.indices.contains(slot) ? slotValues[slot] : nil
    }

    /// What `read` says of the state in `slot`, read in place (not copied out),
    /// nil when the slot holds none.
    func read<Value>(slot: Int, _ read: (ActionState) -> Value) -> Value? {
        guard slotValues.indices.contains(slot) else { return nil }
        return slotValues[slot].map(read)
    }

    /// The slot of `key`, nil when it has none.
    func slot(of key: ActionKey) -> Int? { slots[key] }

    /// The states of `dictionary`, slots in key order.
    public init(_ dictionary: [ActionKey: ActionState]) {
        for key in dictionary.keys.sorted() { append(key, dictionary[key]) }
    }

    /// The states held, in slot order.
    public var values: [ActionState] { slotValues.compactMap { $0 } }

    /// The keys holding a state, in slot order.
    public var keys: [ActionKey] { keyOfSlot.indices.filter { slotValues[$0] != nil }.map { keyOfSlot[$0] } }

    /// The states by key, as a dictionary (for tests and tools; the core reads by key or slot).
    public var dictionary: [ActionKey: ActionState] {
        var result: [ActionKey: ActionState] = [:]
        for (slot, key) in keyOfSlot.enumerated() { result[key] = slotValues[slot] }
        return result
    }

    public static func == (lhs: ActionStates, rhs: ActionStates) -> Bool { lhs.dictionary == rhs.dictionary }

    private mutating func append(_ key: ActionKey, _ state: ActionState?) {
        slots[key] = slotValues.count
        keyOfSlot.append(key)
        slotValues.append(state)
        isAwaitedSlot.append(false)
    }
}
