/// The part of a JSON document a reader uses: which members of an object are
/// kept (each with the shape of its value, or whole), or the shape of every
/// element of an array. `JSONValue.parse(bytes:cutTo:)` builds only that part,
/// so a large announcement costs its bytes and what is read of it, not the
/// several times its size a whole parse takes.
public indirect enum JSONShape: Sendable {
    /// An object: the members with these keys (in their order, repeats kept, so a
    /// lookup finds what it finds in the whole); a member's value to its shape, or whole (nil).
    case members([String: JSONShape?])
    /// An array: every element to this shape; beyond the first `first`, each element
    /// is still checked but read as `null` (so the array keeps its count).
    case elements(JSONShape, first: Int = .max)

    /// Nothing of a value is kept (an object or array comes out empty).
    static let nothing = JSONShape.members([:])

    /// The shape of the member `key` of an object of this shape, or nil when it
    /// is kept whole; `nothing` when it is not kept (`isKept` false).
    func member(_ key: String) -> (isKept: Bool, shape: JSONShape?) {
        guard case .members(let keys) = self else { return (false, .nothing) }
        guard let inner = keys[key] else { return (false, .nothing) }
        return (true, inner)
    }

    /// The shape of the element at `index` of an array of this shape, `nothing` when
    /// it is read as `null` (`asNull`); `nothing` and not kept (the array read as
    /// empty) when an object was expected.
    func element(_ index: Int) -> (isKept: Bool, asNull: Bool, shape: JSONShape?) {
        guard case .elements(let inner, let first) = self else { return (false, false, .nothing) }
        return index < first ? (true, false, inner) : (true, true, .nothing)
    }
}
