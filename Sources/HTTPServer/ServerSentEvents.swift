/// Server-Sent Events framing (WHATWG HTML, "Server-sent events").
public enum ServerSentEvents {
    /// The `Content-Type` of an event stream.
    public static let contentType = "text/event-stream"

    /// One event: optional `id:` and `event:` lines, one `data:` line per line of
    /// `data` (LF, CRLF or CR), then a blank line.
    public static func frame(id: String? = nil, event: String? = nil, data: String) -> String {
        var text = ""
        if let id { text += "id: \(id)\n" }
        if let event { text += "event: \(event)\n" }
        for line in lines(of: data) { text += "data: \(line)\n" }
        return text + "\n"
    }

    /// A comment frame (`: text`), e.g. a keepalive.
    public static func comment(_ text: String) -> String {
        lines(of: text).map { ": \($0)\n" }.joined() + "\n"
    }

    private static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" && previousWasCarriageReturn {
                previousWasCarriageReturn = false
                continue
            }
            previousWasCarriageReturn = scalar == "\r"
            if scalar == "\n" || scalar == "\r" {
                lines.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        lines.append(String(current))
        return lines
    }
}

extension HTTPResponseStream {
    /// Writes a comment frame (a keepalive); false when the client is gone.
    @discardableResult
    public func writeComment(_ text: String) -> Bool {
        write(ServerSentEvents.comment(text))
    }
}
