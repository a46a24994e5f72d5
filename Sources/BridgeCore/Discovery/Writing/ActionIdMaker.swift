/// Action ids from labels: lowercase letters, digits and `_`, unique within the widget.
struct ActionIdMaker {
    static let maxLength = 40
    private var used: Set<String> = []
    /// The next counter to try for each base, so 19,000 labels `Relay` cost linear time.
    private var nextCounter: [String: Int] = [:]
    /// Taken candidates tried so far, in all: at most one per id made plus one per
    /// id taken by another base (what the tests count).
    private(set) var collisionCount = 0

    /// A new id made from `hint` (`Hall light L1` → `hall_light_l1`; `hall_light_l1_2` when taken).
    mutating func make(from hint: String) -> String {
        var base = ""
        for scalar in hint.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                base.unicodeScalars.append(scalar)
            } else if !base.isEmpty, base.last != "_" {
                base.append("_")
            }
        }
        while base.hasSuffix("_") { base.removeLast() }
        if base.count > Self.maxLength { base = String(base.prefix(Self.maxLength)) }
        if base.isEmpty { base = "device" }
        if base.first?.isNumber == true { base = "d_" + base }
        var candidate = base
        var counter = nextCounter[base] ?? 2
        while used.contains(candidate) {
            collisionCount += 1
            candidate = "\(base)_\(counter)"
            counter += 1
        }
        nextCounter[base] = counter
        used.insert(candidate)
        return candidate
    }
}
