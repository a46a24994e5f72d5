extension JSONValue {
    /// Compact JSON text (no insignificant white space), members in their order.
    public func serialized() -> String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): output += String(number)
        case .double(let number): output += Self.text(of: number)
        case .string(let text): Self.writeString(text, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(member.key, to: &output)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func text(of number: Double) -> String {
        guard number.isFinite else { return "null" }
        if abs(number) < 1e15, Double(Int64(number)) == number { return String(Int64(number)) }
        return String(number)
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        // Labels and ids rarely need escaping: append them whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            output += text
        } else {
            for scalar in text.unicodeScalars {
                if let escape = escaped(scalar) { output += escape } else { output.unicodeScalars.append(scalar) }
            }
        }
        output += "\""
    }

    /// The escape of a scalar JSON must escape, or nil when it goes as it is.
    private static func escaped(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case _ where scalar.value < 0x20:
            return "\\u00" + hexDigits(scalar.value >> 4) + hexDigits(scalar.value & 0xF)
        default: return nil
        }
    }

    private static func hexDigits(_ nibble: UInt32) -> String {
        String(nibble, radix: 16)
    }
}
