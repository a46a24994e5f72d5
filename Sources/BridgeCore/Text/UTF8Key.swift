/// Text that is compared, hashed and ordered by its UTF-8 bytes: for names the
/// outside world gives as bytes (event ids, MQTT topics). Swift's `String ==`
/// is canonical equivalence, so `café` written NFC and NFD would be one
/// `String` key; they are two `UTF8Key`s, as they are two ids to the service
/// and two topics to the broker.
public struct UTF8Key: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The text as given.
    public let text: String
    /// Its UTF-8 bytes: what equality, hashing and order use.
    public let bytes: [UInt8]

    public init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
    }

    public static func == (lhs: UTF8Key, rhs: UTF8Key) -> Bool { lhs.bytes == rhs.bytes }

    /// The bytes hashed as one run (an array's own `hash(into:)` combines them
    /// one by one, ~10x the instructions).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Byte order (UTF-8 byte order is code point order).
    public static func < (lhs: UTF8Key, rhs: UTF8Key) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    public var description: String { text }
}
