import BridgeCore

/// An incremental parser of the `text/event-stream` format, exactly as WHATWG
/// HTML's "Server-sent events" section says: UTF-8, an optional BOM at the
/// start, CR, LF or CRLF line ends (also split across chunks), comments,
/// `event`, `data` (joined with LF), `id` (ignored when it has a NUL), `retry`
/// (digits only). Pure: bytes in, outputs out. Bounded by `maxEventBytes` (the
/// line and data buffers keep their capacity between events, so at most that).
/// An id longer than `maxEventIdBytes` is not remembered (the id is forgotten,
/// as an empty `id:` would): it would be echoed as `Last-Event-ID` on every
/// reconnect, and no press id is that long.
public struct SSEParser: Sendable {
    /// What a chunk of the stream produced.
    public enum Output: Sendable, Equatable {
        case event(StreamEvent)
        /// A `retry:` field: the reconnection time in milliseconds.
        case retry(Int)
        /// An event (or line) was larger than the cap; it was skipped.
        case oversized
    }

    public let maxEventBytes: Int
    /// The longest id remembered (press ids are at most 128 bytes).
    public static let maxEventIdBytes = 1_024
    /// The last event ID string (set at each dispatch point from the buffer):
    /// sent as `Last-Event-ID` on reconnect, so an event cut off mid-way is
    /// asked for again.
    public private(set) var lastEventId: String?
    private var lastEventIdBuffer: String?

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""
    private var isAtStreamStart = true
    private var previousWasCR = false
    private var isDiscarding = false
    /// Whether the line being discarded had any byte (so its end is no blank line).
    private var discardedLineHasBytes = false

    public init(maxEventBytes: Int = 64 * 1024, lastEventId: String? = nil) {
        self.maxEventBytes = maxEventBytes
        self.lastEventId = lastEventId
        self.lastEventIdBuffer = lastEventId
    }

    /// A new connection: the stream starts over (BOM allowed again), the last
    /// event ID is kept.
    public mutating func resetStream() {
        self = SSEParser(maxEventBytes: maxEventBytes, lastEventId: lastEventId)
    }

    /// Feeds bytes; returns what they completed, in order.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Output] where Bytes.Element == UInt8 {
        if let outputs = bytes.withContiguousStorageIfAvailable({ feed(UnsafeRawBufferPointer($0)) }) { return outputs }
        return Array(bytes).withUnsafeBytes { feed($0) }
    }

    /// Feeds bytes in place (libcurl's buffer): a line's bytes are appended as one
    /// run up to its end (CR or LF), not one by one.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [Output] {
        var outputs: [Output] = []
        var index = 0
        while isAtStreamStart, index < bytes.count {
            if skipBOM(bytes[index]) { index += 1 }
        }
        while index < bytes.count {
            switch bytes[index] {
            case 0x0D:
                endLine(&outputs)
                previousWasCR = true
                index += 1
            case 0x0A:
                if !previousWasCR { endLine(&outputs) }
                previousWasCR = false
                index += 1
            default:
                previousWasCR = false
                let end = Self.lineBreak(in: bytes, from: index + 1)
                append(UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                index = end
            }
        }
        return outputs
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The index of the first CR or LF of `bytes` from `start`, else `bytes.count`:
    /// looked for with `ByteSearch` (a run of an event's data is hundreds of bytes).
    static func lineBreak(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        let lineFeed = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: start, to: bytes.count) ?? bytes.count
        return ByteSearch.firstIndex(of: 0x0D, in: bytes, from: start, to: lineFeed) ?? lineFeed
    }

    /// Drops a UTF-8 BOM at the very start of the stream.
    private mutating func skipBOM(_ byte: UInt8) -> Bool {
        let position = line.count
        if position < 3, byte == Self.byteOrderMark[position] {
            line.append(byte)
            if line.count == 3 { line = []; isAtStreamStart = false }
            return true
        }
        isAtStreamStart = false
        return false
    }

    /// Appends a run of a line's bytes (no CR or LF in it), or starts discarding the
    /// event when the line and the event's data would pass `maxEventBytes`.
    private mutating func append(_ run: UnsafeRawBufferPointer) {
        guard !isDiscarding else {
            discardedLineHasBytes = true
            return
        }
        guard run.count <= maxEventBytes - line.count - data.count else {
            isDiscarding = true
            discardedLineHasBytes = true
            line.removeAll(keepingCapacity: true)
            return
        }
        line.append(contentsOf: run)
    }

    private mutating func endLine(_ outputs: inout [Output]) {
        defer { line.removeAll(keepingCapacity: true) }
        if isDiscarding {
            // The oversized event ends at the next truly blank line.
            defer { discardedLineHasBytes = false }
            if !discardedLineHasBytes {
                isDiscarding = false
                lastEventId = lastEventIdBuffer
                resetEvent()
                outputs.append(.oversized)
            }
            return
        }
        if line.isEmpty { dispatch(&outputs); return }
        if line.first == UInt8(ascii: ":") { return }
        process(field: line, &outputs)
    }

    private mutating func process(field lineBytes: [UInt8], _ outputs: inout [Output]) {
        let colon = lineBytes.firstIndex(of: UInt8(ascii: ":"))
        let name = lineBytes[..<(colon ?? lineBytes.endIndex)]
        var value = colon.map { lineBytes[($0 + 1)...] } ?? []
        if value.first == UInt8(ascii: " ") { value.removeFirst() }
        if name.elementsEqual(Self.dataField) {
            data.append(contentsOf: value)
            data.append(0x0A)
            hasData = true
        } else if name.elementsEqual(Self.eventField) {
            eventType = String(decoding: value, as: UTF8.self)
        } else if name.elementsEqual(Self.idField), !value.contains(0) {
            lastEventIdBuffer = value.count <= Self.maxEventIdBytes ? String(decoding: value, as: UTF8.self) : nil
        } else if name.elementsEqual(Self.retryField), !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // More digits than an Int holds: as large as it gets (clamped later).
            outputs.append(.retry(Int(String(decoding: value, as: UTF8.self)) ?? Int.max))
        }
    }

    private static let dataField = Array("data".utf8)
    private static let eventField = Array("event".utf8)
    private static let idField = Array("id".utf8)
    private static let retryField = Array("retry".utf8)

    private mutating func dispatch(_ outputs: inout [Output]) {
        defer { resetEvent() }
        lastEventId = lastEventIdBuffer
        guard hasData else { return }
        if data.last == 0x0A { data.removeLast() }
        let type = eventType.isEmpty ? "message" : eventType
        outputs.append(.event(StreamEvent(id: lastEventId, type: type, data: String(decoding: data, as: UTF8.self))))
    }

    private mutating func resetEvent() {
        data.removeAll(keepingCapacity: true)
        hasData = false
        eventType = ""
    }
}
