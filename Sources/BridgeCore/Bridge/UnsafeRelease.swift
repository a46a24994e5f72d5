/// A press of an action not safe to repeat, in the two steps no shell may
/// reorder: its event id is recorded durably, and only then do its MQTT
/// messages go out, with the lines and facts that say it was carried out.
///
/// The messages are not public: the only way to them is `released(by:)`,
/// which takes the `DurableRecord` of this very id, so a shell cannot publish
/// them as plain `publishMQTT` effects, nor before the record is durable.
public struct UnsafeRelease: Sendable, Equatable {
    /// The id to record durably, with when it stops mattering.
    public let event: RememberedEvent
    /// The press's commands.
    let messages: [OutgoingMQTTMessage]
    /// What says the press was carried out (its info lines, `pressCarriedOut`):
    /// performed after the messages, and not at all if the record fails.
    let confirmations: [BridgeEffect]

    init(event: RememberedEvent, messages: [OutgoingMQTTMessage], confirmations: [BridgeEffect]) {
        self.event = event
        self.messages = messages
        self.confirmations = confirmations
    }

    /// The topics of the messages held back (for the line saying so when the record failed).
    public var topics: [String] { messages.map(\.topic) }

    /// The effects to perform now that the record is durable: the messages as
    /// `publishMQTT`, then the confirmations. Nil for a record of another id.
    public func released(by record: DurableRecord) -> [BridgeEffect]? {
        guard UTF8Key(record.event.id) == UTF8Key(event.id) else { return nil }
        return messages.map(BridgeEffect.publishMQTT) + confirmations
    }

    /// Turns the effects of carrying out an unsafe press into a release and
    /// what stays in the batch: its MQTT messages and its info lines and
    /// `pressCarriedOut` go into the release (they happen only once the id is
    /// durable); its timers, answers and warnings stay (they happen either way,
    /// so the phone gets an answer and nothing waits for what never happened).
    static func holdingBack(_ event: RememberedEvent, from pressEffects: [BridgeEffect]) -> [BridgeEffect] {
        var messages: [OutgoingMQTTMessage] = []
        var confirmations: [BridgeEffect] = []
        var rest: [BridgeEffect] = []
        for effect in pressEffects {
            switch effect {
            case .publishMQTT(let message): messages.append(message)
            case .log(.info, _), .observe(.pressCarriedOut): confirmations.append(effect)
            default: rest.append(effect)
            }
        }
        return [.recordThenPublish(UnsafeRelease(event: event, messages: messages, confirmations: confirmations))] + rest
    }
}

/// A recorder's word that an unsafe press's id is durable (written and
/// synced), which `UnsafeRelease.released(by:)` asks for. Only a recorder makes
/// one, and only once the record survives a power cut.
public struct DurableRecord: Sendable, Equatable {
    public let event: RememberedEvent

    /// Call only once `event`'s record is on disk and synced. `package`: no code
    /// outside this package (a plug-in, a caller of the library) can make one.
    package init(syncedRecordOf event: RememberedEvent) { self.event = event }
}
