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
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                output += "\\u00" + hexDigits(scalar.value >> 4) + hexDigits(scalar.value & 0xF)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    private static func hexDigits(_ nibble: UInt32) -> String {
        String(nibble, radix: 16)
    }
}
