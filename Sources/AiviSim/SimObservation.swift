import BridgeCore

/// What an observer of the simulator is told as it happens, on the server's
/// threads (benchmarks time PATCH arrival and event delivery with it).
public enum SimObservation: Sendable {
    /// A `PATCH /widget/{slug}` request arrived, before any check.
    case patchReceived(slug: String)
    /// The PATCH was accepted and stored: the widget's new content.
    case published(slug: String, content: JSONValue)
    /// The PATCH was answered with an error status.
    case patchRefused(slug: String, status: Int)
    /// A frame (a press event, a duplicate or an injected frame; not a keepalive)
    /// was written on an event stream.
    case frameWritten(String)
}
