/// A pure parser of the WHATWG `text/event-stream` format (HTML, "Server-sent events").
///
/// Feed it bytes as they arrive in chunks of any size; it returns what was completed.
/// Lines end in CR, LF or CRLF (also split across chunks); one UTF-8 BOM at the start
/// of a stream is skipped; `:` lines are comments; `data:` lines are joined with LF;
/// `id` values containing NUL are ignored; `retry:` takes ASCII digits only; an event
/// with no data is not dispatched; an unterminated event at the end of a stream is
/// dropped (`reset()`). An event (or line) larger than `maxEventBytes` is skipped and
/// reported as `.oversizedEvent`, and memory stays bounded by that cap.
public struct SSEParser: Sendable {
    /// What a chunk of input completed.
    public enum Output: Sendable, Equatable {
        case event(SSEEvent)
        /// The server asked for this reconnection delay.
        case retry(milliseconds: Int)
        /// An event over the size cap was skipped.
        case oversizedEvent(limitBytes: Int)
    }

    public let maxEventBytes: Int
    /// The last event ID string; kept across `reset()` (it is sent as `Last-Event-ID`).
    public private(set) var lastEventId: String

    private var idBuffer: String
    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var eventType = ""
    private var isLineOversized = false
    private var isEventOversized = false
    private var previousByteWasCR = false
    private var streamStartBytes: [UInt8]? = []
    private var outputs: [Output] = []

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D
    private static let colon: UInt8 = 0x3A
    private static let space: UInt8 = 0x20

    public init(maxEventBytes: Int = 65_536, lastEventId: String = "") {
        self.maxEventBytes = max(1, maxEventBytes)
        self.lastEventId = lastEventId
        self.idBuffer = lastEventId
    }

    /// Parses the next bytes of the stream.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Output] {
        outputs = []
        for byte in bytes {
            if streamStartBytes != nil {
                consumeAtStreamStart(byte)
            } else {
                consume(byte)
            }
        }
        return outputs
    }

    /// Forgets the partial line and event (a new connection starts a new stream).
    /// The last event ID is kept.
    public mutating func reset() {
        line.removeAll(keepingCapacity: true)
        data.removeAll(keepingCapacity: true)
        eventType = ""
        idBuffer = lastEventId
        isLineOversized = false
        isEventOversized = false
        previousByteWasCR = false
        streamStartBytes = []
    }

    /// Holds back up to three bytes to recognise (and drop) a leading BOM.
    private mutating func consumeAtStreamStart(_ byte: UInt8) {
        var pending = streamStartBytes ?? []
        pending.append(byte)
        if pending == Self.byteOrderMark {
            streamStartBytes = nil
        } else if Self.byteOrderMark.starts(with: pending) {
            streamStartBytes = pending
        } else {
            streamStartBytes = nil
            for pendingByte in pending { consume(pendingByte) }
        }
    }

    private mutating func consume(_ byte: UInt8) {
        switch byte {
        case Self.lineFeed:
            if previousByteWasCR {
                previousByteWasCR = false
            } else {
                endLine()
            }
        case Self.carriageReturn:
            endLine()
            previousByteWasCR = true
        default:
            previousByteWasCR = false
            if line.count + data.count >= maxEventBytes {
                isLineOversized = true
            } else {
                line.append(byte)
            }
        }
    }

    private mutating func endLine() {
        defer {
            line.removeAll(keepingCapacity: true)
            isLineOversized = false
        }
        if isLineOversized {
            isEventOversized = true
        } else if line.isEmpty {
            dispatch()
        } else if line.first != Self.colon {
            processField()
        }
    }

    private mutating func processField() {
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colonIndex = line.firstIndex(of: Self.colon) {
            name = line[..<colonIndex]
            value = line[(colonIndex + 1)...]
            if value.first == Self.space { value = value.dropFirst() }
        } else {
            name = line[...]
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "event": eventType = String(decoding: value, as: UTF8.self)
        case "data": appendData(value)
        case "id": if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case "retry": processRetry(value)
        default: break
        }
    }

    private mutating func appendData(_ value: ArraySlice<UInt8>) {
        guard !isEventOversized else { return }
        if data.count + value.count + 1 > maxEventBytes {
            isEventOversized = true
            data.removeAll(keepingCapacity: true)
        } else {
            data.append(contentsOf: value)
            data.append(Self.lineFeed)
        }
    }

    private mutating func processRetry(_ value: ArraySlice<UInt8>) {
        let isDigits = !value.isEmpty && value.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        if isDigits, let milliseconds = Int(String(decoding: value, as: UTF8.self)) {
            outputs.append(.retry(milliseconds: milliseconds))
        }
    }

    private mutating func dispatch() {
        lastEventId = idBuffer
        defer {
            data.removeAll(keepingCapacity: true)
            eventType = ""
            isEventOversized = false
        }
        if isEventOversized {
            outputs.append(.oversizedEvent(limitBytes: maxEventBytes))
            return
        }
        guard !data.isEmpty else { return }
        data.removeLast()
        let type = eventType.isEmpty ? "message" : eventType
        outputs.append(.event(SSEEvent(id: lastEventId, type: type, data: String(decoding: data, as: UTF8.self))))
    }
}
