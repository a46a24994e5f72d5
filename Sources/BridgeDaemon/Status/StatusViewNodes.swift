import BridgeCore

/// The view nodes of the status widget, built only from what the Webhook
/// Widget protocol shows: `vstack`, `text` and `spacer` with their attributes.
enum StatusViewNodes {
    static let backgroundColor = "#151A21"
    static let mutedColor = "#6D7786"
    static let warningColor = "#FF9500"

    static func stack(_ children: [JSONValue]) -> JSONValue {
        .object([
            JSONMember("type", .string("vstack")),
            JSONMember("align", .string("leading")),
            JSONMember("spacing", .int(4)),
            JSONMember("padding", .int(16)),
            JSONMember("bg", .string(backgroundColor)),
            JSONMember("children", .array(children)),
        ])
    }

    static func title(_ text: String) -> JSONValue {
        self.text(text, style: "headline", weight: "bold", color: "white")
    }

    /// "Porch light · On", colored by its state.
    static func actionRow(_ row: StatusView.Row) -> JSONValue {
        let stateText = SpokenText.sentenceStart(row.display.word)
        return text(row.label + " · " + stateText, style: "subheadline", weight: nil, color: row.display.rowColor)
    }

    static func moreRow(count: Int) -> JSONValue {
        text("and \(count) more", style: "footnote", weight: nil, color: mutedColor)
    }

    static func note(_ message: String) -> JSONValue {
        text(message, style: "footnote", weight: nil, color: mutedColor)
    }

    static func footer(_ message: String, isWarning: Bool) -> JSONValue {
        text(message, style: "caption2", weight: isWarning ? "bold" : nil, color: isWarning ? warningColor : mutedColor)
    }

    static func spacer() -> JSONValue {
        .object([JSONMember("type", .string("spacer"))])
    }

    private static func text(_ text: String, style: String, weight: String?, color: String) -> JSONValue {
        var members = [
            JSONMember("type", .string("text")),
            JSONMember("text", .string(text)),
            JSONMember("style", .string(style)),
        ]
        if let weight { members.append(JSONMember("weight", .string(weight))) }
        members.append(JSONMember("color", .string(color)))
        members.append(JSONMember("lines", .int(1)))
        return .object(members)
    }
}
