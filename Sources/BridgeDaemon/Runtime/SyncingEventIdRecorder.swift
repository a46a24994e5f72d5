@_spi(DurableRecordStore) import BridgeCore
import Glibc
import ShellSupport

/// The daemon's `UnsafeEventRecorder`: the id store (`EventIdStore`) behind its
/// one syncing thread (issue 38 item 8). The loop hands it the
/// records of unsafe presses and the ids to forget, and goes on; it appends
/// and syncs them off the loop and hands each outcome back through `finish`
/// (the runtime's inbox, which wakes the loop). Records queued while a sync
/// runs are written and synced together by the next (group commit), so a
/// slow card costs an unsafe press at most the sync before its own and its
/// own, never a safe press anything. The queue is bounded by the core's bound
/// on unsafe ids awaiting a record (`DedupeMemory.maxUnsafeIds`); past it a
/// record fails at once (nothing is sent, the press is answered).
final class SyncingEventIdRecorder: UnsafeEventRecorder, Sendable {
    /// One record the loop asked for, and whom to tell.
    struct Request: Sendable {
        var event: RememberedEvent
        var finish: @Sendable (RecordOutcome) -> Void
    }

    /// What waits for the thread.
    private struct Queue {
        var records: [Request] = []
        var forgotten: [String] = []
        var isStopping = false
        var hasWork: Bool { !records.isEmpty || !forgotten.isEmpty || isStopping }
    }

    static let maxQueuedRecords = DedupeMemory.maxUnsafeIds
    /// Forgotten ids waiting beyond this are dropped from the request (they are
    /// only kept longer, which is safe).
    static let maxQueuedForgotten = 4 * DedupeMemory.maxUnsafeIds

    private let queue = ConditionLock(Queue())
    private let thread = OnDemandThread()
    /// Used by the syncing thread only, once it runs.
    private let store: EventIdStore
    /// Says what failed off the loop (a compaction); the sink is thread-safe.
    private let report: @Sendable (LogMessage) -> Void

    /// `store` is loaded and open already; from now on only the thread touches it.
    init(store: EventIdStore, report: @escaping @Sendable (LogMessage) -> Void) {
        self.store = store
        self.report = report
    }

    /// Queues the record; its outcome comes through `finish`, from the syncing
    /// thread. Refused at once (nothing sent) when the queue is full.
    func record(_ event: RememberedEvent, finish: @escaping @Sendable (RecordOutcome) -> Void) -> RecordOutcome? {
        guard enqueue(Request(event: event, finish: finish)) else {
            return .failure(FileError(path: store.path, operation: "queue the record of", errorNumber: EAGAIN,
                                      reason: "\(Self.maxQueuedRecords) records already wait for a slow disk"))
        }
        return nil
    }

    /// Queues ids to forget; never fails on the loop (a failed compaction is reported from the thread).
    func forget(_ ids: [String]) throws(FileError) { enqueueForgetting(ids) }

    /// Queues a record (from the loop); false when the queue is full or no thread could start.
    private func enqueue(_ request: Request) -> Bool {
        guard startIfNeeded() else { return false }
        return queue.withLock { queue in
            guard !queue.isStopping, queue.records.count < Self.maxQueuedRecords else { return false }
            queue.records.append(request)
            return true
        }
    }

    /// Queues ids to forget (from the loop); dropped when no thread could start.
    private func enqueueForgetting(_ ids: [String]) {
        guard !ids.isEmpty, startIfNeeded() else { return }
        queue.withLock { queue in
            guard queue.forgotten.count + ids.count <= Self.maxQueuedForgotten else { return }
            queue.forgotten += ids
        }
    }

    /// Finishes what is queued, then ends the thread and waits for it.
    func stop() {
        queue.withLock { $0.isStopping = true }
        thread.join()
    }

    private func startIfNeeded() -> Bool {
        thread.startIfNeeded { [self] in run() }
    }

    private func run() {
        while true {
            let (records, forgotten, isStopping) = queue.wait(timeoutMs: -1, until: \.hasWork) { queue in
                defer { queue.records.removeAll(); queue.forgotten.removeAll() }
                return (queue.records, queue.forgotten, queue.isStopping)
            }
            if !records.isEmpty || !forgotten.isEmpty {
                let result = perform(records.map(\.event), forgotten)
                for request in records {
                    request.finish(result.map { DurableRecord(syncedRecordOf: request.event) })
                }
            }
            if isStopping, queue.withLock({ $0.records.isEmpty && $0.forgotten.isEmpty }) { return }
        }
    }

    /// On the thread: forgets, then appends and syncs the records together.
    private func perform(_ records: [RememberedEvent], _ forgotten: [String]) -> Result<Void, FileError> {
        do throws(FileError) { try store.forget(forgotten) } catch {
            report("cannot compact the event ids in the state directory (they are kept longer): \(error)")
        }
        guard !records.isEmpty else { return .success(()) }
        do throws(FileError) {
            try store.record(records)
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}
