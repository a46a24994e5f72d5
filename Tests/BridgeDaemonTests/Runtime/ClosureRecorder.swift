@_spi(DurableRecordStore) import BridgeCore
import BridgeDaemon
import Glibc

/// A recorder for runtime tests: each record runs `body` at once (a throw of a
/// `FileError` fails it); forgetting does nothing.
final class ClosureRecorder: UnsafeEventRecorder, Sendable {
    let body: @Sendable (RememberedEvent) throws(FileError) -> Void

    init(_ body: @escaping @Sendable (RememberedEvent) throws(FileError) -> Void = { _ in }) { self.body = body }

    func record(_ event: RememberedEvent, finish: @escaping @Sendable (RecordOutcome) -> Void) -> RecordOutcome? {
        do throws(FileError) {
            try body(event)
            return .success(DurableRecord(syncedRecordOf: event))
        } catch {
            return .failure(error)
        }
    }

    func forget(_ ids: [String]) throws(FileError) {}
}
