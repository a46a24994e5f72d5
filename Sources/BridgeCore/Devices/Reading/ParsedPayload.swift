/// One MQTT payload read once for every listener of its topic: parsed as JSON
/// at most once, each distinct listened field looked up once, so 3,500 actions
/// on one topic cost one parse per message, not 3,500.
struct ParsedPayload: Sendable {
    /// The trimmed raw payload: the value for a source without a field, or
    /// when the payload is not a JSON object.
    let rawText: String
    /// Whether the payload is empty or only whitespace (a cleared retained message).
    let isBlank: Bool
    /// Whether the payload starts like a JSON object but does not parse as one.
    let isBrokenJSON: Bool
    /// The member names of a JSON object payload (the first 12, each cut to 40
    /// characters for the log), or nil when it is not a JSON object.
    let topLevelKeys: [String]?
    /// How many times the bytes were parsed as JSON: 0 or 1, whatever the listeners.
    let jsonParseCount: Int
    /// How many field lookups were made: one per distinct field of the topic.
    var fieldLookupCount: Int { readings.count }
    private let isJSONObject: Bool
    private let readings: [[String]: PayloadReader.Reading]

    /// Reads `bytes` once and looks up each of `fields` (the distinct fields the
    /// topic's listeners read) once.
    init(_ bytes: [UInt8], fields: Set<[String]>) {
        rawText = PayloadReader.trimmedText(bytes)
        isBlank = PayloadReader.isBlank(bytes)
        let startsLikeObject = PayloadReader.looksLikeJSONObject(bytes)
        let json = startsLikeObject ? try? JSONValue.parse(bytes: bytes) : nil
        jsonParseCount = startsLikeObject ? 1 : 0
        isBrokenJSON = startsLikeObject && json == nil
        let members = json?.objectMembers
        isJSONObject = members != nil
        topLevelKeys = members.map { PayloadReader.logKeys($0) }
        readings = Self.readings(of: members, fields)
    }

    /// What the payload says about `field` (a dotted path): its scalar value,
    /// absent, or the raw payload when there is no field or no JSON object.
    func reading(_ field: [String]?) -> PayloadReader.Reading {
        guard let field, isJSONObject else { return .value(rawText) }
        return readings[field] ?? .absent
    }

    private static func readings(of members: [JSONMember]?, _ fields: Set<[String]>) -> [[String]: PayloadReader.Reading] {
        guard let members, !fields.isEmpty else { return [:] }
        // The first member of a name wins, as in JSONValue's subscript; one pass, not one per field.
        var topLevel: [String: JSONValue] = [:]
        for member in members where topLevel[member.key] == nil { topLevel[member.key] = member.value }
        var readings: [[String]: PayloadReader.Reading] = [:]
        for field in fields {
            guard let first = field.first, let found = topLevel[first]?.value(atPath: Array(field.dropFirst())),
                  let scalar = found.scalarText else { readings[field] = .absent; continue }
            readings[field] = .value(scalar)
        }
        return readings
    }
}
