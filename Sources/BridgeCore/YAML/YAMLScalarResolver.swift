/// Types plain scalars by the YAML 1.2 core schema: null, booleans, integers
/// (decimal, `0o` octal, `0x` hex), floats (including `.inf` and `.nan`);
/// anything else is a string.
public enum YAMLScalarResolver {
    public static func resolve(_ text: String) -> YAMLScalarValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if let number = integer(text) { return number }
        if let number = float(text) { return .double(number) }
        return .string(text)
    }

    /// Written as a whole number (decimal, `0o`, `0x`), whether or not it fits
    /// an `Int64`: one too big to fit is still a whole number, out of range.
    public static func isWrittenAsInteger(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        if scalars.count > 2, scalars[0] == "0", scalars[1] == "o" || scalars[1] == "x" {
            return scalars[2...].allSatisfy { $0.properties.isASCIIHexDigit && (scalars[1] == "x" || ("0"..."7").contains($0)) }
        }
        let body = scalars.first == "-" || scalars.first == "+" ? scalars.dropFirst() : scalars[...]
        return !body.isEmpty && body.allSatisfy(isDigit)
    }

    private static func integer(_ text: String) -> YAMLScalarValue? {
        let scalars = Array(text.unicodeScalars)
        if scalars.count > 2, scalars[0] == "0", scalars[1] == "o" || scalars[1] == "x" {
            let digits = String(String.UnicodeScalarView(scalars[2...]))
            let radix = scalars[1] == "o" ? 8 : 16
            guard let number = Int64(digits, radix: radix) else { return nil }
            return .int(number)
        }
        let body = scalars.first == "-" || scalars.first == "+" ? scalars.dropFirst() : scalars[...]
        guard !body.isEmpty, body.allSatisfy(isDigit) else { return nil }
        if let number = Int64(text) { return .int(number) }
        return Double(text).map(YAMLScalarValue.double)
    }

    private static func float(_ text: String) -> Double? {
        var scalars = Array(text.unicodeScalars)
        var negative = false
        if let sign = scalars.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            scalars.removeFirst()
        }
        let body = String(String.UnicodeScalarView(scalars))
        switch body {
        case ".inf", ".Inf", ".INF": return negative ? -Double.infinity : Double.infinity
        case ".nan", ".NaN", ".NAN": return text == body ? Double.nan : nil
        default: break
        }
        guard isDecimalFloat(scalars) else { return nil }
        var normalized = body
        if normalized.hasPrefix(".") { normalized = "0" + normalized }
        normalized = normalized.replacingDotBeforeExponent()
        guard let magnitude = Double(normalized) else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// `( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
    private static func isDecimalFloat(_ scalars: [Unicode.Scalar]) -> Bool {
        var index = 0
        let integerDigits = countDigits(scalars, from: &index)
        var fractionDigits = 0
        if index < scalars.count, scalars[index] == "." {
            index += 1
            fractionDigits = countDigits(scalars, from: &index)
        }
        guard integerDigits + fractionDigits > 0 else { return false }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            index += 1
            if index < scalars.count, scalars[index] == "-" || scalars[index] == "+" { index += 1 }
            guard countDigits(scalars, from: &index) > 0 else { return false }
        }
        return index == scalars.count
    }

    private static func countDigits(_ scalars: [Unicode.Scalar], from index: inout Int) -> Int {
        let start = index
        while index < scalars.count, isDigit(scalars[index]) { index += 1 }
        return index - start
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar >= "0" && scalar <= "9"
    }
}

private extension String {
    /// `1.e5` -> `1.0e5` and a trailing `1.` -> `1.0`, so Swift's parser takes it.
    func replacingDotBeforeExponent() -> String {
        var result = ""
        let scalars = Array(unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            result.unicodeScalars.append(scalar)
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if scalar == ".", next == nil || next == "e" || next == "E" { result += "0" }
        }
        return result
    }
}
