/// A tile's own words for the app's states: the Switchboard template's
/// `state_words` field, which the bridge passes through as written (the
/// service's guide: "A tile can use your own instead, such as Open and Opening
/// for a garage door ... They rename the states, and change nothing about when
/// each one shows"). Its keys are the app's states in the template's terms
/// (`on`, `off`, `turning_on`, `turning_off`, `no_response`, `active`, `idle`,
/// `sent`), each a word: `{on: Open, off: Closed, turning_on: Opening,
/// turning_off: Closing}`. A state it does not name keeps the app's word.
/// The pages read it from the content the service received, as a phone does.
public struct TileStateWords: Sendable, Equatable {
    /// The longest word kept, in characters (a tile's second line is short).
    public static let maxScalars = 40

    public private(set) var words: [TileFaceState: String] = [:]

    public init() {}

    /// The words of a `state_words` value; anything but an object of strings is
    /// ignored member by member (an unknown key, a number, an empty string).
    public init(_ value: JSONValue?) {
        guard case .object(let members)? = value else { return }
        for member in members {
            guard let state = TileFaceState(templateKey: member.key), let text = member.value.stringValue else { continue }
            let word = DisplayText.quoted(text, maxScalars: Self.maxScalars)
            if !word.isEmpty, words[state] == nil { words[state] = word }
        }
    }

    /// The tile's word for `state`, or nil to use the app's.
    public func word(for state: TileFaceState) -> String? { words[state] }

    /// The words the pages use for a door or lock whose content names none:
    /// Open/Closed/Opening/Closing, Locked/Unlocked/Locking/Unlocking.
    public static func defaults(for device: TileDevice) -> TileStateWords {
        var defaults = TileStateWords()
        switch device {
        case .plainSwitch: break
        case .cover: defaults.words = [.on: "Open", .off: "Closed", .turningOn: "Opening", .turningOff: "Closing"]
        case .lock: defaults.words = [.on: "Locked", .off: "Unlocked", .turningOn: "Locking", .turningOff: "Unlocking"]
        }
        return defaults
    }

    /// These words, with `fallback`'s for the states these do not name.
    public func filled(from fallback: TileStateWords) -> TileStateWords {
        var merged = fallback
        for (state, word) in words { merged.words[state] = word }
        return merged
    }
}

extension TileFaceState {
    /// The state's key in the template's `state_words` (`turning_on`, `no_response`).
    public var templateKey: String {
        switch self {
        case .off: return "off"
        case .idle: return "idle"
        case .on: return "on"
        case .active: return "active"
        case .turningOn: return "turning_on"
        case .turningOff: return "turning_off"
        case .noResponse: return "no_response"
        case .sent: return "sent"
        }
    }

    /// The state a `state_words` key names, or nil.
    public init?(templateKey: String) {
        guard let state = Self.allCases.first(where: { $0.templateKey == templateKey }) else { return nil }
        self = state
    }
}
