@testable import BridgeCore

/// Generates YAML documents inside the subset and inside what YAML 1.1
/// (PyYAML) reads the same way: no yes/no/on/off plains, no octals or
/// sexagesimals, no timestamps, floats with a dot.
struct YAMLDocumentGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// SplitMix64.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    mutating func document() -> String {
        var lines: [String] = []
        if chance(30) { lines.append("# generated document") }
        if chance(50) {
            blockMapping(indent: 0, depth: 0, into: &lines)
        } else {
            blockSequence(indent: 0, depth: 0, into: &lines)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Block collections

    private mutating func blockMapping(indent: Int, depth: Int, into lines: inout [String], firstPrefix: String? = nil) {
        let pad = String(repeating: " ", count: indent)
        var keys = Set<String>()
        for index in 0..<(1 + below(4)) {
            var key = self.key()
            while keys.contains(key) { key = "key_\(below(100_000))" }
            keys.insert(key)
            let prefix = index == 0 ? (firstPrefix ?? pad) : pad
            if chance(10) { lines.append(pad + "# about \(key)") }
            let step = pick([2, 4])
            switch depth < 3 ? below(10) : 0 {
            case 0...4:
                lines.append(prefix + key + ": " + inlineValue() + comment())
            case 5:
                lines.append(prefix + key + ":" + comment())
                blockMapping(indent: indent + step, depth: depth + 1, into: &lines)
            case 6:
                lines.append(prefix + key + ":")
                blockSequence(indent: chance(50) ? indent : indent + step, depth: depth + 1, into: &lines)
            case 7:
                lines.append(prefix + key + ": " + blockScalarHeader())
                blockScalarBody(indent: indent + step, into: &lines)
            case 8:
                lines.append(prefix + key + ":")
                if chance(30) { lines.append("") }
            default:
                lines.append(prefix + key + ": " + flowValue(depth: 0))
            }
        }
    }

    private mutating func blockSequence(indent: Int, depth: Int, into lines: inout [String]) {
        let pad = String(repeating: " ", count: indent)
        for _ in 0..<(1 + below(4)) {
            switch depth < 3 ? below(8) : 0 {
            case 0...2:
                lines.append(pad + "- " + inlineValue() + comment())
            case 3:
                blockMapping(indent: indent + 2, depth: depth + 1, into: &lines, firstPrefix: pad + "- ")
            case 4:
                lines.append(pad + "-")
                blockMapping(indent: indent + pick([2, 4]), depth: depth + 1, into: &lines)
            case 5:
                lines.append(pad + "- " + blockScalarHeader())
                blockScalarBody(indent: indent + 2, into: &lines)
            case 6:
                lines.append(pad + "- " + flowValue(depth: 0))
            default:
                lines.append(pad + "-")
                blockSequence(indent: indent + 2, depth: depth + 1, into: &lines)
            }
        }
    }

    private mutating func blockScalarHeader() -> String {
        pick(["|", ">", "|-", ">-", "|+", ">+"]) + (chance(20) ? " # block" : "")
    }

    private mutating func blockScalarBody(indent: Int, into lines: inout [String]) {
        let pad = String(repeating: " ", count: indent)
        lines.append(pad + words(1 + below(3)))
        for _ in 0..<below(4) {
            switch below(6) {
            case 0: lines.append("")
            case 1: lines.append(pad + "  more indented " + word())
            default: lines.append(pad + words(1 + below(4)) + (chance(20) ? " # not a comment" : ""))
            }
        }
        if chance(40) { lines.append("") }
    }

    // MARK: Scalars and flow

    private mutating func inlineValue() -> String {
        chance(15) ? flowValue(depth: 0) : scalar(inFlow: false)
    }

    private mutating func flowValue(depth: Int) -> String {
        let count = below(4)
        if chance(50) {
            let items = (0..<count).map { _ in depth < 2 && chance(20) ? flowValue(depth: depth + 1) : scalar(inFlow: true) }
            return "[" + items.joined(separator: pick([", ", ",", " , "])) + "]"
        }
        var keys = Set<String>()
        var members: [String] = []
        for _ in 0..<count {
            var key = self.key()
            while keys.contains(key) { key = "key_\(below(100_000))" }
            keys.insert(key)
            let value = depth < 2 && chance(20) ? flowValue(depth: depth + 1) : scalar(inFlow: true)
            members.append(chance(10) ? "\(doubleQuotedText(key)):\(value)" : "\(key): \(value)")
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    private mutating func comment() -> String {
        chance(15) ? "  # note" : ""
    }

    private mutating func key() -> String {
        switch below(10) {
        case 0: return singleQuoted("\(word()) key")
        case 1: return doubleQuotedText(word())
        default: return pick(["id", "label", "topic", "payload", "name", "value", "state", "kind", "extra", "host"])
            + (chance(50) ? "_\(word())" : "")
        }
    }

    private mutating func word() -> String {
        pick(["alpha", "beta", "porch", "light", "fan", "Movie", "drop.fill", "home/fan/set", "a-b", "x_y", "über", "café",
              "http://h:80/p", "a:b", "c#d", "e'f", "g\"h", "12abc", "-dash", "v1.2.3", "Online", "Offline"])
    }

    private mutating func words(_ count: Int) -> String {
        (0..<count).map { _ in word() }.joined(separator: " ")
    }

    private mutating func scalar(inFlow: Bool) -> String {
        switch below(14) {
        case 0: return String(Int64(bitPattern: next()) % 100_000)
        case 1: return "\(below(1000)).\(below(1000))"
        case 2: return "-\(below(100)).\(below(10))e+\(below(5))"
        case 3: return pick(["true", "false", "True", "FALSE", "null", "~", "Null"])
        case 4: return singleQuoted(pick(["yes", "no", "on", "off", "ON", "OFF", "", "it's", "a: b", "#x", "010", "1:20", "2001-12-14"]))
        case 5: return doubleQuoted()
        case 6: return inFlow ? doubleQuotedText(word()) : words(1 + below(3))
        case 7: return "'\(words(1 + below(3)).replacingOccurrences(of: "'", with: "''"))'"
        default:
            let text = pick(["alpha", "beta", "porch", "light", "fan", "Movie", "drop.fill", "home/fan/set", "a-b", "x_y",
                             "über", "café", "Online", "v1.2.3", "12abc", "3.1.1"])
            return text
        }
    }

    private func singleQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    private func doubleQuotedText(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private mutating func doubleQuoted() -> String {
        let pieces = ["plain", "\\n", "\\t", "\\\"", "\\\\", "\\u00e9", "\\x41", "\\U0001F600", " ", "\\/", "\\0", "#", ": "]
        return "\"" + (0..<(1 + below(5))).map { _ in pick(pieces) }.joined() + "\""
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
