/// One tile of a Switchboard: what it shows and how it maps to MQTT.
///
/// Presets (`zigbee2mqtt:`, `tasmota:`, ...) are already expanded into the
/// topic fields here; explicit keys in the file override what a preset set.
public struct ActionConfig: Sendable, Equatable {
    /// What a press delivers as `data.action`; unique within the widget.
    public var id: String
    public var label: String
    public var icon: String?
    public var color: String?
    public var kind: ActionKind
    /// What a toggle drives (switch, cover, lock): what its `on` means.
    public var device: TileDevice
    /// Where the on/off state comes from (toggles). Several sources are allowed
    /// where a firmware reports on more than one topic (Tasmota POWER and RESULT).
    public var stateSources: [StateSource]
    /// The on/off command (toggles).
    public var command: ToggleCommand?
    /// A door on a pulsed relay: this one message replaces `command`, sent only
    /// when the sensed state differs from the asked one, at most once per
    /// `travelTimeMs`, never retried, never retained.
    public var pulse: MQTTMessageSpec?
    /// Covers and locks: how long a command may take to reach its end state;
    /// nil means `device.defaultTravelTimeMs`.
    public var travelTimeMs: Int64?
    /// Locks: whether a press may unlock (off). False: the tile only locks.
    public var allowUnlock: Bool
    /// Where the device says whether it is reachable; nil when it never says.
    public var availability: AvailabilitySource?
    /// Where the gateway the device talks through says whether it runs
    /// (zigbee2mqtt's `bridge/state`): the device is unreachable when either
    /// source says so, as zigbee2mqtt's own discovery does (`availability_mode: all`).
    public var gatewayAvailability: AvailabilitySource?
    /// What a button press publishes, in order.
    public var publishes: [MQTTMessageSpec]
    /// Where a button's `active` highlight comes from.
    public var activeSource: ActiveSource?
    /// A scene made of the widget's own tiles: each target is driven to its
    /// state by a press, and the button is active exactly while all hold.
    /// Empty for other buttons.
    public var sets: [SceneTarget]
    /// False for actions that must never run twice for one press (feeding the
    /// cat): their event ids are persisted before the command goes out.
    public var repeatSafe: Bool
    /// For devices that report nothing: the state is assumed from the command.
    public var optimistic: Bool
    /// A message that asks a device that does not retain its state to report it
    /// (Tasmota: `cmnd/T/State`; zigbee2mqtt: `.../get`); the actions of one device
    /// send it once (`StateQueryTable`).
    public var stateQuery: MQTTMessageSpec?
    /// Overrides `TimingSettings.confirmTimeoutMs` for this action.
    public var confirmTimeoutMs: Int64?
    /// Template fields passed through verbatim into the action's content
    /// (documented pass-through keys and everything under `extra:`), in order.
    public var passthrough: [JSONMember]
    /// The preset the action was built from, if any (for `check`'s summary).
    public var preset: String?
    /// Where the action starts in the config file.
    public var location: SourceLocation?

    public init(
        id: String,
        label: String,
        icon: String? = nil,
        color: String? = nil,
        kind: ActionKind,
        device: TileDevice = .plainSwitch,
        stateSources: [StateSource] = [],
        command: ToggleCommand? = nil,
        pulse: MQTTMessageSpec? = nil,
        travelTimeMs: Int64? = nil,
        allowUnlock: Bool = false,
        availability: AvailabilitySource? = nil,
        gatewayAvailability: AvailabilitySource? = nil,
        publishes: [MQTTMessageSpec] = [],
        activeSource: ActiveSource? = nil,
        sets: [SceneTarget] = [],
        repeatSafe: Bool = true,
        optimistic: Bool = false,
        stateQuery: MQTTMessageSpec? = nil,
        confirmTimeoutMs: Int64? = nil,
        passthrough: [JSONMember] = [],
        preset: String? = nil,
        location: SourceLocation? = nil
    ) {
        self.id = id
        self.label = label
        self.icon = icon
        self.color = color
        self.kind = kind
        self.device = device
        self.stateSources = stateSources
        self.command = command
        self.pulse = pulse
        self.travelTimeMs = travelTimeMs
        self.allowUnlock = allowUnlock
        self.availability = availability
        self.gatewayAvailability = gatewayAvailability
        self.publishes = publishes
        self.activeSource = activeSource
        self.sets = sets
        self.repeatSafe = repeatSafe
        self.optimistic = optimistic
        self.stateQuery = stateQuery
        self.confirmTimeoutMs = confirmTimeoutMs
        self.passthrough = passthrough
        self.preset = preset
        self.location = location
    }

    /// A button made of tiles (`sets:`).
    public var isScene: Bool { !sets.isEmpty }

    /// A button that shows `active`: from its active topic, or derived from its tiles.
    public var hasHighlight: Bool { activeSource != nil || isScene }

    /// The travel time in force: the action's, or its device's default.
    public var effectiveTravelTimeMs: Int64 { travelTimeMs ?? device.defaultTravelTimeMs }

    /// Every topic this action listens to.
    public var subscribedTopics: [String] {
        var topics = stateSources.map(\.topic)
        if let availability { topics.append(availability.topic) }
        if let gatewayAvailability { topics.append(gatewayAvailability.topic) }
        if let activeSource { topics.append(activeSource.topic) }
        return topics
    }
}

/// The two kinds of Switchboard tile.
public enum ActionKind: String, Sendable, Equatable {
    case toggle
    case button
}

/// Reads an on/off state from one topic.
public struct StateSource: Sendable, Equatable {
    public var topic: String
    /// Dotted path into a JSON payload; nil means the raw payload. When the
    /// payload is not JSON, the raw payload is used even if a field is set.
    public var field: [String]?
    /// State values, compared case-insensitively.
    public var onValue: String
    public var offValue: String
    /// Values meaning the device switched itself off to protect itself (Shelly
    /// gen1 `overpower`): read as off, and logged once.
    public var protectiveOffValues: [String]
    /// Covers and locks: the further words this source reads (opening,
    /// jammed, ...), compared case-insensitively like `onValue`.
    public var meanings: [StateMeaning]
    /// The value is a position in percent (0 = closed), not a word.
    public var isPosition: Bool
    /// A position source whose 100 is closed and 0 fully open (Tasmota's
    /// `ShutterInvert 1`, zigbee2mqtt's `invert_cover`; the key `invert_position`).
    public var isInverted: Bool = false

    public init(topic: String, field: [String]? = nil, onValue: String = "ON", offValue: String = "OFF",
                protectiveOffValues: [String] = [], meanings: [StateMeaning] = [], isPosition: Bool = false) {
        self.topic = topic
        self.field = field
        self.onValue = onValue
        self.offValue = offValue
        self.protectiveOffValues = protectiveOffValues
        self.meanings = meanings
        self.isPosition = isPosition
    }

    /// A source reading only words beyond on/off (a motion, Tasmota's Direction).
    public static func words(topic: String, field: [String]?, _ meanings: [StateMeaning]) -> StateSource {
        StateSource(topic: topic, field: field, onValue: "", offValue: "", meanings: meanings)
    }

    /// A source reading a position in percent (0 = closed, anything above = open;
    /// `inverted`: 100 = closed, anything below = open).
    public static func position(topic: String, field: [String]?, inverted: Bool = false) -> StateSource {
        var source = StateSource(topic: topic, field: field, onValue: "", offValue: "", isPosition: true)
        source.isInverted = inverted
        return source
    }
}

/// Reads a device's reachability from one topic.
public struct AvailabilitySource: Sendable, Equatable {
    public var topic: String
    /// Dotted path into a JSON payload; nil (or a non-JSON payload) means raw.
    public var field: [String]?
    /// The value meaning reachable, case-insensitive.
    public var availableValue: String
    /// The value meaning unreachable; any other value is then not understood
    /// (logged once and skipped). Nil: anything but `availableValue` means
    /// unreachable, so a dead device never looks alive.
    public var unavailableValue: String?

    public init(topic: String, field: [String]? = nil, availableValue: String = "online", unavailableValue: String? = nil) {
        self.topic = topic
        self.field = field
        self.availableValue = availableValue
        self.unavailableValue = unavailableValue
    }
}

/// Reads a button's `active` highlight from one topic: active while the value
/// equals `value` (case-insensitive), inactive otherwise.
public struct ActiveSource: Sendable, Equatable {
    public var topic: String
    public var field: [String]?
    public var value: String

    public init(topic: String, field: [String]? = nil, value: String) {
        self.topic = topic
        self.field = field
        self.value = value
    }
}

/// The explicit on/off command of a toggle. Never "toggle".
public struct ToggleCommand: Sendable, Equatable {
    public var topic: String
    public var payloadOn: String
    public var payloadOff: String
    /// Where the off command goes when not to `topic` (Tasmota's `ShutterClose1`
    /// beside `ShutterOpen1`).
    public var offTopic: String?

    public init(topic: String, payloadOn: String = "ON", payloadOff: String = "OFF", offTopic: String? = nil) {
        self.topic = topic
        self.payloadOn = payloadOn
        self.payloadOff = payloadOff
        self.offTopic = offTopic
    }

    /// The message that asks for `on`: QoS 1, never retained, never a toggle.
    public func message(on: Bool) -> OutgoingMQTTMessage {
        OutgoingMQTTMessage(topic: on ? topic : offTopic ?? topic, payload: on ? payloadOn : payloadOff, qos: 1, retain: false)
    }
}

/// One MQTT message to publish, as configured.
public struct MQTTMessageSpec: Sendable, Equatable {
    public var topic: String
    public var payload: String
    public var qos: Int
    public var retain: Bool

    public init(topic: String, payload: String, qos: Int = 1, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}
