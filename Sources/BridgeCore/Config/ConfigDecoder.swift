/// Decodes the YAML tree of a config file into a `BridgeConfig`, collecting
/// every problem as a diagnostic instead of stopping at the first.
struct ConfigDecoder {
    let fileName: String
    let sourceLines: [String]
    /// Everything reported, within bounds.
    private(set) var budget = DiagnosticBudget()

    init(fileName: String, sourceLines: [String]) {
        self.fileName = fileName
        self.sourceLines = sourceLines
    }

    /// Whether any error was reported (shown or not).
    var hasError: Bool { budget.hasError }

    mutating func error(_ message: String, at location: SourceLocation) {
        report(.error, message, at: location)
    }

    /// Errors found elsewhere (the YAML checks) and not kept.
    mutating func countOmittedErrors(_ count: Int) {
        budget.countOmitted(errors: count)
    }

    mutating func warning(_ message: String, at location: SourceLocation) {
        report(.warning, message, at: location)
    }

    private mutating func report(_ severity: ConfigDiagnostic.Severity, _ message: String, at location: SourceLocation) {
        let lineIndex = location.line - 1
        let line = sourceLines.indices.contains(lineIndex) ? sourceLines[lineIndex] : nil
        budget.add(ConfigDiagnostic(severity: severity, fileName: fileName, location: location,
                                    message: message, sourceLine: line))
    }
}

/// The entries of one mapping of the config, with the words messages use to
/// name it ("action 'porch'", "'mqtt'").
struct ConfigSection {
    let entries: [YAMLMapEntry]
    let location: SourceLocation
    let name: String

    func entry(_ key: String) -> YAMLMapEntry? {
        entries.first { $0.keyText == key }
    }

    /// The value of `key`, nil when absent or written as null.
    func value(_ key: String) -> YAMLNode? {
        guard let node = entry(key)?.value, !node.isNull else { return nil }
        return node
    }

    func has(_ key: String) -> Bool { value(key) != nil }

    /// Where a key is, for messages: "in action 'porch'", "at the top level".
    var place: String { name == ConfigSection.topLevelName ? "at \(name)" : "in \(name)" }

    static let topLevelName = "the top level"
}

extension ConfigDecoder {
    /// `node` as a section whose keys must be among `allowedKeys`; unknown keys
    /// are reported with a suggestion. Nil (and an error) when not a mapping.
    mutating func section(_ node: YAMLNode, name: String, allowedKeys: [String]) -> ConfigSection? {
        guard let entries = node.mappingEntries else {
            error("\(name) must be a mapping of 'key: value' lines, not \(node.typeDescription)", at: node.location)
            return nil
        }
        let isTopLevel = name == ConfigSection.topLevelName
        // The nearest top-level key above, tracked in one pass (a file may have
        // tens of thousands of unknown keys: no scan back per key).
        var topLevelKeyAbove: YAMLMapEntry?
        for entry in entries {
            defer { if isTopLevel, ConfigKeys.topLevel.contains(entry.keyText) { topLevelKeyAbove = entry } }
            guard !allowedKeys.contains(entry.keyText) else { continue }
            var message = "unknown key '\(entry.keyText)' \(isTopLevel ? "at" : "in") \(name)"
            if isTopLevel, let section = Self.sectionAbove(entry, nearestTopLevelKeyAbove: topLevelKeyAbove) {
                message += " (it belongs under '\(section):' above, which is left empty: indent it)"
            } else if let suggestion = EditDistance.suggestion(for: entry.keyText, among: allowedKeys) {
                message += " (did you mean '\(suggestion)'?)"
            }
            error(message, at: entry.key.location)
        }
        // One check per line: only a block entry (one per line) can lose its value to a comment,
        // and a flow mapping of thousands of entries on one long line must not be scanned once per entry.
        var checkedLines: Set<Int> = []
        for entry in entries where entry.value.isNull && checkedLines.insert(entry.key.location.line).inserted {
            if !reportValueTakenAsComment(entry) { reportDefaultForNullValue(entry, place: isTopLevel ? "at \(name)" : "in \(name)") }
        }
        return ConfigSection(entries: entries, location: node.location, name: name)
    }

    /// For a key left unindented at the top level (`mqtt:` then `host: x` at
    /// column 1): the empty section above it that has such a key.
    static func sectionAbove(_ entry: YAMLMapEntry, nearestTopLevelKeyAbove previous: YAMLMapEntry?) -> String? {
        guard let previous, previous.value.isNull, let keys = ConfigKeys.sectionKeys[previous.keyText] else { return nil }
        return keys.contains(entry.keyText) ? previous.keyText : nil
    }

    /// `color: #8B4513` is a key with no value and a comment: a '#' right
    /// after the colon (and a space) starts a comment, so the value is lost.
    /// Reported when the comment reads like a value (no space after '#').
    /// True when reported.
    private mutating func reportValueTakenAsComment(_ entry: YAMLMapEntry) -> Bool {
        let lineIndex = entry.key.location.line - 1
        guard sourceLines.indices.contains(lineIndex) else { return false }
        let scalars = Array(sourceLines[lineIndex].unicodeScalars)
        let keyStart = max(0, entry.key.location.column - 1)
        guard keyStart < scalars.count, let colon = scalars[keyStart...].firstIndex(of: ":") else { return false }
        var index = colon + 1
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
        guard index > colon + 1, index + 1 < scalars.count, scalars[index] == "#",
              scalars[index + 1] != " ", scalars[index + 1] != "\t" else { return false }
        let value = String(String.UnicodeScalarView(scalars[index...].prefix { $0 != " " && $0 != "\t" }))
        error("'\(entry.keyText)' has no value: a '#' starts a comment here; quote the value: \(entry.keyText): \"\(value)\"",
              at: SourceLocation(line: entry.key.location.line, column: index + 1))
        return true
    }

    /// `qos: ~`, `payload:` alone: a setting written without a value is read
    /// as absent, so its default silently applies; said, on its line.
    private mutating func reportDefaultForNullValue(_ entry: YAMLMapEntry, place: String) {
        guard !ConfigKeys.ownNullHandling.contains(entry.keyText) else { return }
        warning("'\(entry.keyText)' \(place) has no value, so its default is used; write a value or remove the line",
                at: entry.key.location)
    }

    /// A scalar used as text; booleans and numbers give their text as written.
    mutating func string(_ section: ConfigSection, _ key: String, allowEmpty: Bool = false) -> String? {
        guard let node = section.value(key) else { return nil }
        guard let text = node.scalar?.textValue else {
            error("'\(key)' \(section.place) must be text, not \(node.typeDescription)", at: node.location)
            return nil
        }
        if text.isEmpty, !allowEmpty {
            error("'\(key)' \(section.place) must not be empty", at: node.location)
            return nil
        }
        return text
    }

    /// Like `string`, but reports a missing key.
    mutating func requiredString(_ section: ConfigSection, _ key: String) -> String? {
        guard section.has(key) else {
            error("missing required key '\(key)' \(section.place)", at: section.entry(key)?.key.location ?? section.location)
            return nil
        }
        return string(section, key)
    }

    mutating func integer(_ section: ConfigSection, _ key: String, range: ClosedRange<Int64>) -> Int64? {
        guard let node = section.value(key) else { return nil }
        guard case .int(let number)? = node.scalar?.value else {
            if let scalar = node.scalar, scalar.style == .plain, YAMLScalarResolver.isWrittenAsInteger(scalar.text) {
                let written = scalar.text.count > 24 ? String(scalar.text.prefix(24)) + "…" : scalar.text
                error("'\(key)' \(section.place) must be between \(range.lowerBound) and \(range.upperBound) (it is \(written), "
                      + "out of range)", at: node.location)
            } else {
                error("'\(key)' \(section.place) must be a whole number, not \(node.typeDescription)", at: node.location)
            }
            return nil
        }
        guard range.contains(number) else {
            error("'\(key)' \(section.place) must be between \(range.lowerBound) and \(range.upperBound) (it is \(number))",
                  at: node.location)
            return nil
        }
        return number
    }

    mutating func bool(_ section: ConfigSection, _ key: String) -> Bool? {
        guard let node = section.value(key) else { return nil }
        guard case .bool(let flag)? = node.scalar?.value else {
            if let scalar = node.scalar, scalar.style == .plain, let meant = Self.yamlOneOneBoolean(scalar.text) {
                // Issue 41: `allow_unlock: yes` said only "not a string".
                error("'\(key)' \(section.place) must be true or false, not the text '\(scalar.text)': write \(meant) "
                      + "(in YAML 1.2, which this file is, yes, no, on and off are text)", at: node.location)
            } else {
                error("'\(key)' \(section.place) must be true or false, not \(node.typeDescription)", at: node.location)
            }
            return nil
        }
        return flag
    }

    /// What a YAML 1.1 boolean word (`yes`, `off`, `Y`, ...) meant there: `true` or `false`.
    static func yamlOneOneBoolean(_ text: String) -> String? {
        switch text.lowercased() {
        case "yes", "y", "on": return "true"
        case "no", "n", "off": return "false"
        default: return nil
        }
    }

    /// A topic: text that MQTT and exact matching accept.
    mutating func topic(_ section: ConfigSection, _ key: String) -> String? {
        guard let text = string(section, key, allowEmpty: true) else { return nil }
        guard checkTopic(text, what: "'\(key)' \(section.place)", at: section.value(key)?.location ?? section.location) else {
            return nil
        }
        return text
    }

    /// Reports a topic that MQTT or the bridge cannot use; true when fine.
    mutating func checkTopic(_ topic: String, what: String, at location: SourceLocation) -> Bool {
        guard let problem = MQTTTopicRules.problem(with: topic) else { return true }
        error("\(what) \(problem)", at: location)
        return false
    }

    /// A dotted path into a JSON payload (`a.b.c`).
    mutating func fieldPath(_ section: ConfigSection, _ key: String) -> [String]? {
        guard let text = string(section, key) else { return nil }
        let path = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if path.contains(where: \.isEmpty) {
            error("'\(key)' \(section.place) must be a dotted path like 'a.b' without empty parts", at: section.value(key)?.location ?? section.location)
            return nil
        }
        return path
    }
}
