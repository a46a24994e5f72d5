import BridgeCore

/// What the service answers a PATCH with.
struct PatchAnswer: Sendable {
    var status: Int
    var body: JSONValue
    var retryAfterSeconds: Int?

    static func error(_ status: Int, _ message: String, retryAfterSeconds: Int? = nil) -> PatchAnswer {
        PatchAnswer(status: status, body: .object([JSONMember("error", .string(message))]),
                    retryAfterSeconds: retryAfterSeconds)
    }
}
