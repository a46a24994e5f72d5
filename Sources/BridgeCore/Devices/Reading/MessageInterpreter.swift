/// Reads one payload for one listener: the single place that decides what a
/// device message means, for the bridge and for `watch` alike. The payload is
/// read once per message (`ParsedPayload`), whatever the number of listeners.
enum MessageInterpreter {
    static func verdict(_ payload: ParsedPayload, role: TopicIndex.Role) -> MessageVerdict {
        switch role {
        case .state(let source): return stateVerdict(payload, source)
        case .availability(let source), .gatewayAvailability(let source): return availabilityVerdict(payload, source)
        case .active(let source):
            switch payload.reading(source.field) {
            case .absent: return absent(payload, source.field)
            case .value(let value): return .active(PayloadReader.matches(value, source.value))
            }
        }
    }

    static func stateVerdict(_ payload: ParsedPayload, _ source: StateSource) -> MessageVerdict {
        guard case .value(let value) = payload.reading(source.field) else { return absent(payload, source.field) }
        if source.isPosition { return positionVerdict(value, payload, source) }
        // An empty word is none: a motion-only source (Tasmota's Direction) has no on or off.
        if !source.onValue.isEmpty, PayloadReader.matches(value, source.onValue) { return .on }
        if !source.offValue.isEmpty, PayloadReader.matches(value, source.offValue) { return .off }
        if let meaning = source.meanings.first(where: { PayloadReader.matches(value, $0.value) }) { return .reading(meaning.reading) }
        if let fault = source.protectiveOffValues.first(where: { PayloadReader.matches(value, $0) }) { return .protectiveOff(fault) }
        // A blink (Tasmota's aside) is read, but not what the source is expected to say.
        let said = source.meanings.filter { $0.reading != .blinking }.map(\.value)
        let words = ([source.onValue, source.offValue] + said).filter { !$0.isEmpty }
        return .notUnderstood(expectation(payload, field: source.field, values: words, got: value))
    }

    /// A position, as percent open (0 closed). Closed is exactly the source's
    /// closed value (`0`, `0.0`; `100` when inverted); a fraction near it is
    /// 1 % open, never closed (`0.4`, `99.6` inverted), and a fraction near
    /// the other end 99 %, never an end. A signed or out-of-range number is no
    /// known position (Shelly gen1 `-1`, not calibrated; `-0`, `-0.5`, `140`).
    static func positionVerdict(_ value: String, _ payload: ParsedPayload, _ source: StateSource) -> MessageVerdict {
        guard let number = PayloadReader.decimalNumber(value) else {
            return .notUnderstood(expectation(payload, field: source.field, values: ["a position 0 to 100"], got: value))
        }
        guard !number.isNegative, number.whole < 100 || (number.whole == 100 && !number.hasFraction) else { return .position(nil) }
        let isClosed = source.isInverted ? number.whole == 100 : number.isExactlyZero
        if isClosed { return .position(0) }
        let rounded = number.whole + (number.hasFraction && number.tenths >= 5 ? 1 : 0)
        let open = Int(source.isInverted ? 100 - rounded : rounded)
        return .position(min(max(open, 1), number.hasFraction ? 99 : 100))
    }

    static func availabilityVerdict(_ payload: ParsedPayload, _ source: AvailabilitySource) -> MessageVerdict {
        if payload.isBlank { return .availabilityCleared }
        switch payload.reading(source.field) {
        case .absent: return absent(payload, source.field)
        case .value(let value) where PayloadReader.matches(value, source.availableValue): return .available
        case .value(let value):
            // Without a configured unavailable value, anything else means
            // unreachable: a dead device must never look alive.
            guard let unavailable = source.unavailableValue else { return .unavailable }
            if PayloadReader.matches(value, unavailable) { return .unavailable }
            return .notUnderstood(expectation(payload, field: source.field, values: [source.availableValue, unavailable], got: value))
        }
    }

    private static func absent(_ payload: ParsedPayload, _ field: [String]?) -> MessageVerdict {
        .fieldAbsent(field: (field ?? []).joined(separator: "."), fieldsPresent: payload.topLevelKeys ?? [])
    }

    private static func expectation(_ payload: ParsedPayload, field: [String]?, values: [String], got value: String) -> String {
        let wanted = values.map { "'\($0)'" }.joined(separator: " or ")
        guard let field else { return "expected \(wanted)" }
        let path = field.joined(separator: ".")
        if payload.isBrokenJSON { return "not valid JSON; expected field '\(path)' with \(wanted)" }
        if payload.topLevelKeys == nil { return "expected \(wanted), or JSON with field '\(path)'" }
        return "expected \(wanted) in field '\(path)', got '\(PayloadExcerpt.make(Array(value.utf8), limit: 32))'"
    }
}
