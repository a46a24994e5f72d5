/// Makes event ids like `evt_01JD9Q6W3K8Z`: Crockford base32 of the simulator's
/// start time and a counter, so ids differ across runs and never repeat in one.
struct EventIdentifier: Sendable {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    private let prefix: String

    init(startMs: Int64) {
        prefix = "evt_" + Self.base32(UInt64(max(0, startMs)), digits: 9)
    }

    func id(sequence: Int) -> String {
        prefix + Self.base32(UInt64(sequence), digits: 5)
    }

    private static func base32(_ number: UInt64, digits: Int) -> String {
        var remaining = number
        var characters: [Character] = []
        for _ in 0..<digits {
            characters.append(alphabet[Int(remaining % 32)])
            remaining /= 32
        }
        return String(characters.reversed())
    }
}
