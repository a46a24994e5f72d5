import BridgeCore

/// What a record of an unsafe press's id came to: the recorder's word that it
/// is durable, or why not.
public typealias RecordOutcome = Result<DurableRecord, FileError>

/// The runtime's disk for the ids of presses not safe to repeat: the one thing
/// that must be done before such a press's command goes out. The daemon's is
/// the id file (`EventIdStore`); the seeded simulation's fails, or is slow.
public protocol UnsafeEventRecorder: AnyObject, Sendable {
    /// Records `event` durably (appended and synced). Returns the outcome when
    /// it is known before returning; otherwise nil, and calls `finish` exactly
    /// once when it is (from any thread). Called on the runtime's loop only.
    func record(_ event: RememberedEvent, finish: @escaping @Sendable (RecordOutcome) -> Void) -> RecordOutcome?

    /// These ids no replay can deliver any more: they may be dropped (when the
    /// store next compacts). A failure only keeps them longer, which is safe.
    func forget(_ ids: [String]) throws(FileError)
}
