/// The record a press not safe to repeat needs before it is carried out: its
/// event id, to be made durable by the store. The core commits nothing of the
/// press (state, door hold, command token, facts) until the record's outcome
/// comes back: `released(by:)` turns the store's `DurableRecord` of this very
/// id into the input that carries the press out; a failure is fed back as
/// `unsafeEventIdsNotRecorded`, and the press is answered with the true state.
public struct UnsafeRelease: Sendable, Equatable {
    /// The id to record durably, with when it stops mattering.
    public let event: RememberedEvent

    init(event: RememberedEvent) { self.event = event }

    /// The input that carries the press out now that its record is durable.
    /// Nil for a record of another id.
    public func released(by record: DurableRecord) -> BridgeInputEvent? {
        guard UTF8Key(record.event.id) == UTF8Key(event.id) else { return nil }
        return .unsafeEventIdRecorded(record)
    }
}

/// A recorder's word that an unsafe press's id is durable (written and
/// synced), which `UnsafeRelease.released(by:)` asks for. Only a recorder makes
/// one, and only once the record survives a power cut.
public struct DurableRecord: Sendable, Equatable {
    public let event: RememberedEvent

    /// Call only once `event`'s record is on disk and synced. Only a file that
    /// imports `@_spi(DurableRecordStore) BridgeCore` sees it: the store's
    /// (`SyncingEventIdRecorder.swift`) and the tests' fake stores; the rest of
    /// the daemon, the core and any caller of the library cannot make one.
    @_spi(DurableRecordStore) public init(syncedRecordOf event: RememberedEvent) { self.event = event }
}
