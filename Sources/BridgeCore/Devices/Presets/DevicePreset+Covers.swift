/// Covers and locks of each firmware: the shapes each really sends (the
/// fixtures in `Tests/BridgeCoreTests/Devices/Covers/CoverPayloads.swift` name their
/// sources), read as what a cover's or lock's `on` means (see `TileDevice`).
extension DevicePreset {
    /// zigbee2mqtt covers: `state` OPEN/CLOSE (Tuya's STOP), `position` (0 closed), and
    /// where sent `moving` (Tuya UP/DOWN/STOP, Sonoff stop/forward/reverse, Livolo
    /// true/false) and `motor_state` (opening/closing/stopped, Lumi's blocked and pause).
    /// Sources in that order: a position or a motion overrides what `state` said.
    /// Sonoff's forward/reverse and Livolo's true say it moves but not which way:
    /// not closed, the motion as it was.
    static func zigbee2mqttCover(name: String, channel: Channel, base: String) -> Expansion {
        let suffix = if case .name(let endpoint) = channel { "_\(endpoint)" } else { "" }
        let device = "\(base)/\(name)"
        let moving = [
            StateMeaning("UP", .opening), StateMeaning("DOWN", .closing), StateMeaning("STOP", .motionStopped),
            StateMeaning("false", .motionStopped), StateMeaning("true", .moving),
            StateMeaning("forward", .moving), StateMeaning("reverse", .moving),   // Sonoff's stop is STOP: words match in any case
        ]
        let motor = [
            StateMeaning("opening", .opening), StateMeaning("closing", .closing), StateMeaning("stopped", .motionStopped),
            StateMeaning("blocked", .motionStopped), StateMeaning("pause", .motionStopped),
        ]
        return Expansion(
            stateSources: [
                StateSource(topic: device, field: ["state\(suffix)"], onValue: "OPEN", offValue: "CLOSE",
                            meanings: [StateMeaning("STOP", .stopped)]),
                .position(topic: device, field: ["position\(suffix)"]),
                .words(topic: device, field: ["moving\(suffix)"], moving),
                .words(topic: device, field: ["motor_state\(suffix)"], motor),
            ],
            command: ToggleCommand(topic: "\(device)/set", payloadOn: "{\"state\(suffix)\":\"OPEN\"}",
                                   payloadOff: "{\"state\(suffix)\":\"CLOSE\"}"),
            availability: zigbee2mqttAvailability(device),
            gatewayAvailability: zigbee2mqttAvailability("\(base)/bridge"),
            stateQuery: MQTTMessageSpec(topic: "\(device)/get", payload: "{\"position\(suffix)\":\"\"}", qos: 1, retain: false),
            device: .cover
        )
    }

    /// zigbee2mqtt locks (`lock` converter): `state` LOCK/UNLOCK (LOCKED/UNLOCKED from
    /// Yale's C4 module) and `lock_state` locked / unlocked / not_fully_locked, which
    /// comes after `state` and so decides (a jam is `not_fully_locked`).
    static func zigbee2mqttLock(name: String, channel: Channel, base: String) -> Expansion {
        let suffix = if case .name(let endpoint) = channel { "_\(endpoint)" } else { "" }
        let device = "\(base)/\(name)"
        return Expansion(
            stateSources: [
                StateSource(topic: device, field: ["state\(suffix)"], onValue: "LOCK", offValue: "UNLOCK"),
                StateSource(topic: device, field: ["state\(suffix)"], onValue: "LOCKED", offValue: "UNLOCKED"),
                StateSource(topic: device, field: ["lock_state\(suffix)"], onValue: "locked", offValue: "unlocked",
                            meanings: [StateMeaning("not_fully_locked", .notFullyLocked)]),
            ],
            command: ToggleCommand(topic: "\(device)/set", payloadOn: "{\"state\(suffix)\":\"LOCK\"}",
                                   payloadOff: "{\"state\(suffix)\":\"UNLOCK\"}"),
            availability: zigbee2mqttAvailability(device),
            gatewayAvailability: zigbee2mqttAvailability("\(base)/bridge"),
            stateQuery: MQTTMessageSpec(topic: "\(device)/get", payload: "{\"state\(suffix)\":\"\"}", qos: 1, retain: false),
            device: .lock
        )
    }

    private static func zigbee2mqttAvailability(_ topicBase: String) -> AvailabilitySource {
        let topic = topicBase.hasSuffix("/bridge") ? "\(topicBase)/state" : "\(topicBase)/availability"
        return AvailabilitySource(topic: topic, field: ["state"], availableValue: "online", unavailableValue: "offline")
    }

    /// ESPHome covers: `state` open/closed/opening/closing/unknown, and
    /// `position/state` 0-100 for covers that know their position.
    static func esphomeCover(nodeAndName: String) -> Expansion {
        let (node, name) = Self.nodeAndName(nodeAndName)
        let base = "\(node)/cover/\(name)"
        return Expansion(
            stateSources: [
                StateSource(topic: "\(base)/state", onValue: "open", offValue: "closed", meanings: [
                    StateMeaning("opening", .opening), StateMeaning("closing", .closing), StateMeaning("unknown", .unknown),
                ]),
                .position(topic: "\(base)/position/state", field: nil),
            ],
            command: ToggleCommand(topic: "\(base)/command", payloadOn: "OPEN", payloadOff: "CLOSE"),
            availability: AvailabilitySource(topic: "\(node)/status", availableValue: "online", unavailableValue: "offline"),
            stateQuery: nil,
            device: .cover
        )
    }

    /// ESPHome locks: `state` LOCKED/UNLOCKED/JAMMED/LOCKING/UNLOCKING/UNKNOWN.
    static func esphomeLock(nodeAndName: String) -> Expansion {
        let (node, name) = Self.nodeAndName(nodeAndName)
        let base = "\(node)/lock/\(name)"
        return Expansion(
            stateSources: [
                StateSource(topic: "\(base)/state", onValue: "LOCKED", offValue: "UNLOCKED", meanings: [
                    StateMeaning("JAMMED", .jammed), StateMeaning("LOCKING", .locking), StateMeaning("UNLOCKING", .unlocking),
                    StateMeaning("UNKNOWN", .unknown),
                ]),
            ],
            command: ToggleCommand(topic: "\(base)/command", payloadOn: "LOCK", payloadOff: "UNLOCK"),
            availability: AvailabilitySource(topic: "\(node)/status", availableValue: "online", unavailableValue: "offline"),
            stateQuery: nil,
            device: .lock
        )
    }

    /// Shelly gen2/gen3 `cover:N`: `state` open/closed/opening/closing/stopped/
    /// calibrating and `current_pos` (absent or null without calibration), on
    /// the status topic and in NotifyStatus on `events/rpc`.
    static func shellyPlusCover(id: String, coverId: Int64) -> Expansion {
        let component = "cover:\(coverId)"
        let words = [
            StateMeaning("opening", .opening), StateMeaning("closing", .closing), StateMeaning("stopped", .stopped),
            StateMeaning("calibrating", .calibrating),
        ]
        func sources(_ topic: String, _ path: [String]) -> [StateSource] {
            [StateSource(topic: topic, field: path + ["state"], onValue: "open", offValue: "closed", meanings: words),
             .position(topic: topic, field: path + ["current_pos"])]
        }
        return Expansion(
            stateSources: sources("\(id)/status/\(component)", []) + sources("\(id)/events/rpc", ["params", component]),
            command: ToggleCommand(topic: "\(id)/command/\(component)", payloadOn: "open", payloadOff: "close"),
            availability: AvailabilitySource(topic: "\(id)/online", availableValue: "true", unavailableValue: "false"),
            stateQuery: MQTTMessageSpec(topic: "\(id)/command", payload: "status_update", qos: 1, retain: false),
            device: .cover
        )
    }

    /// Shelly gen1 in roller mode: `roller/N` is the motion (open, close, stop),
    /// `roller/N/pos` the position (-1 when not calibrated).
    static func shellyRoller(id: String, roller: Int64) -> Expansion {
        let base = "shellies/\(id)"
        return Expansion(
            stateSources: [
                .words(topic: "\(base)/roller/\(roller)", field: nil, [
                    StateMeaning("open", .opening), StateMeaning("close", .closing), StateMeaning("stop", .motionStopped),
                ]),
                .position(topic: "\(base)/roller/\(roller)/pos", field: nil),
            ],
            command: ToggleCommand(topic: "\(base)/roller/\(roller)/command", payloadOn: "open", payloadOff: "close"),
            availability: AvailabilitySource(topic: "\(base)/online", availableValue: "true", unavailableValue: "false"),
            stateQuery: MQTTMessageSpec(topic: "\(base)/command", payload: "update", qos: 1, retain: false),
            device: .cover
        )
    }

    /// Tasmota shutters: `ShutterN` {Position, Direction, Target} in RESULT and
    /// SENSOR (the 2019 driver of Tasmota 7 wrote `direction` in lower case),
    /// in the answer to `Status 10` (`StatusSNS`), and the raw position on
    /// `stat/T/SHUTTERn`; `ShutterOpenN` / `ShutterCloseN`.
    ///
    /// The state query is `Status 10`: it only reports (support_command.ino
    /// CmndStatus → MqttShowSensor, whose FUNC_JSON_APPEND is the shutter
    /// driver's position object) in every version. An empty `ShutterPositionN`
    /// is not a question: the 2019 driver reads it as -99, a target of 0, and
    /// drives the shutter closed. Its answer (`{"ShutterPosition1":0}`) is the
    /// target of a command, never a position: not read.
    static func tasmotaShutter(topic: String, channel: Channel, fullTopic: String) -> Expansion {
        let shutter = if case .index(let index) = channel { index } else { Int64(1) }
        let key = "Shutter\(shutter)"
        func path(_ prefix: String, _ last: String) -> String { tasmotaTopic(fullTopic, prefix: prefix, topic: topic) + last }
        let direction = [StateMeaning("1", .movingTowardOpen), StateMeaning("-1", .movingTowardClosed), StateMeaning("0", .motionStopped)]
        let objects = [(path("stat", "RESULT"), [key]), (path("tele", "SENSOR"), [key]), (path("stat", "STATUS10"), ["StatusSNS", key])]
        let json = objects.flatMap { topic, object in
            [StateSource.position(topic: topic, field: object + ["Position"]), .words(topic: topic, field: object + ["Direction"], direction),
             .words(topic: topic, field: object + ["direction"], direction)]
        }
        return Expansion(
            stateSources: json + [.position(topic: path("stat", "SHUTTER\(shutter)"), field: nil)],
            command: ToggleCommand(topic: path("cmnd", "ShutterOpen\(shutter)"), payloadOn: "", payloadOff: "",
                                   offTopic: path("cmnd", "ShutterClose\(shutter)")),
            availability: AvailabilitySource(topic: path("tele", "LWT"), availableValue: "Online", unavailableValue: "Offline"),
            stateQuery: MQTTMessageSpec(topic: path("cmnd", "Status"), payload: "10", qos: 1, retain: false),
            device: .cover
        )
    }
}
