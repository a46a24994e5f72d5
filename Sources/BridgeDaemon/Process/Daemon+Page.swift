import BridgeCore
import HTTPServer

/// A page served beside the bridge (the demo's): on the daemon's one loop, so
/// its handler runs between batches and may read the core's snapshot.
extension Daemon {
    /// Serves `handler` on the daemon's loop; stop it on the loop's thread
    /// (after `run()` returns, on the thread that called it).
    public func serve(_ configuration: HTTPServerConfiguration, handler: @escaping HTTPHandler) throws(HTTPServerError) -> HTTPServer {
        try HTTPServer.start(configuration: configuration, handler: handler, on: loop)
    }

    /// What the bridge knows now, for a handler of `serve` (on the loop's
    /// thread, between batches); nil anywhere else, and before the first batch.
    public func statusSnapshot() -> BridgeSnapshot? { runtime.statusSnapshot() }
}
