import Testing
@testable import BridgeCore

/// Issue 20 section 5: each cover and lock preset on what its firmware sends
/// (`CoverPayloads` names the sources).
@Suite("Cover and lock presets read what real firmware sends")
struct CoverPresetTests {
    struct Situation: Sendable, CustomStringConvertible {
        var name: String
        var action: String
        var messages: [(String, String)]
        var isOn: Bool?
        var shownOn: Bool
        var motion: Motion = .none
        var description: String { name }
    }

    static let situations: [Situation] = [
        Situation(name: "z2m cover open", action: "zigbee2mqtt_cover: garage", messages: [("zigbee2mqtt/garage", CoverPayloads.z2mCoverOpen)], isOn: true, shownOn: true),
        Situation(name: "z2m cover closed", action: "zigbee2mqtt_cover: garage", messages: [("zigbee2mqtt/garage", CoverPayloads.z2mCoverClosed)], isOn: false, shownOn: false),
        Situation(name: "z2m cover part-way", action: "zigbee2mqtt_cover: garage", messages: [("zigbee2mqtt/garage", CoverPayloads.z2mCoverPartWay)], isOn: true, shownOn: true),
        Situation(name: "z2m Tuya STOP", action: "zigbee2mqtt_cover: blind", messages: [("zigbee2mqtt/blind", CoverPayloads.z2mTuyaStopped)], isOn: true, shownOn: true),
        Situation(name: "z2m Tuya moving DOWN", action: "zigbee2mqtt_cover: blind",
                  messages: [("zigbee2mqtt/blind", CoverPayloads.z2mTuyaMovingDown)], isOn: true, shownOn: true, motion: .towardOff),
        Situation(name: "z2m Tuya moving STOP part-way", action: "zigbee2mqtt_cover: blind",
                  messages: [("zigbee2mqtt/blind", CoverPayloads.z2mTuyaMovingDown), ("zigbee2mqtt/blind", CoverPayloads.z2mTuyaMovingStop)],
                  isOn: true, shownOn: true),
        Situation(name: "z2m Livolo moving true then false", action: "zigbee2mqtt_cover: blind",
                  messages: [("zigbee2mqtt/blind", CoverPayloads.z2mTuyaMovingDown), ("zigbee2mqtt/blind", CoverPayloads.z2mLivoloMoving),
                             ("zigbee2mqtt/blind", CoverPayloads.z2mLivoloStill)],
                  isOn: true, shownOn: true),
        Situation(name: "z2m Sonoff forward then stop", action: "zigbee2mqtt_cover: curtain",
                  messages: [("zigbee2mqtt/curtain", CoverPayloads.z2mTuyaMovingDown), ("zigbee2mqtt/curtain", CoverPayloads.z2mSonoffForward),
                             ("zigbee2mqtt/curtain", CoverPayloads.z2mSonoffStop)],
                  isOn: true, shownOn: true),
        Situation(name: "z2m Lumi blocked ends the motion", action: "zigbee2mqtt_cover: shade",
                  messages: [("zigbee2mqtt/shade", CoverPayloads.z2mMotorClosing), ("zigbee2mqtt/shade", CoverPayloads.z2mLumiBlocked)],
                  isOn: true, shownOn: true),
        Situation(name: "z2m Lumi pause ends the motion", action: "zigbee2mqtt_cover: shade",
                  messages: [("zigbee2mqtt/shade", CoverPayloads.z2mMotorClosing), ("zigbee2mqtt/shade", CoverPayloads.z2mLumiPause)],
                  isOn: true, shownOn: true),
        Situation(name: "z2m falling position", action: "zigbee2mqtt_cover: blind",
                  messages: [("zigbee2mqtt/blind", CoverPayloads.z2mCoverOpen), ("zigbee2mqtt/blind", CoverPayloads.z2mCoverPartWay)],
                  isOn: true, shownOn: true, motion: .towardOff),
        Situation(name: "z2m Bosch motor closing", action: "zigbee2mqtt_cover: shutter",
                  messages: [("zigbee2mqtt/shutter", CoverPayloads.z2mMotorClosing)], isOn: true, shownOn: true, motion: .towardOff),
        Situation(name: "z2m Bosch stopped closed", action: "zigbee2mqtt_cover: shutter",
                  messages: [("zigbee2mqtt/shutter", CoverPayloads.z2mMotorClosing), ("zigbee2mqtt/shutter", CoverPayloads.z2mMotorStoppedClosed)],
                  isOn: false, shownOn: false),
        Situation(name: "z2m lock locked", action: "zigbee2mqtt_lock: front", messages: [("zigbee2mqtt/front", CoverPayloads.z2mLockLocked)], isOn: true, shownOn: true),
        Situation(name: "z2m lock not fully locked", action: "zigbee2mqtt_lock: front",
                  messages: [("zigbee2mqtt/front", CoverPayloads.z2mLockLocked), ("zigbee2mqtt/front", CoverPayloads.z2mLockNotFully)], isOn: false, shownOn: false),
        Situation(name: "z2m lock unlocked", action: "zigbee2mqtt_lock: front", messages: [("zigbee2mqtt/front", CoverPayloads.z2mLockUnlocked)], isOn: false, shownOn: false),
        Situation(name: "z2m Yale jammed is not locked", action: "zigbee2mqtt_lock: front",
                  messages: [("zigbee2mqtt/front", CoverPayloads.z2mLockLocked), ("zigbee2mqtt/front", CoverPayloads.z2mYaleJammed)], isOn: false, shownOn: false),
        Situation(name: "z2m Yale C4 LOCKED", action: "zigbee2mqtt_lock: front",
                  messages: [("zigbee2mqtt/front", CoverPayloads.z2mYaleC4KeypadLock)], isOn: true, shownOn: true),
        Situation(name: "z2m Yale C4 state LOCKED alone", action: "zigbee2mqtt_lock: front",
                  messages: [("zigbee2mqtt/front", #"{"state":"LOCKED"}"#)], isOn: true, shownOn: true),
        Situation(name: "z2m Yale C4 deadbolt jammed", action: "zigbee2mqtt_lock: front",
                  messages: [("zigbee2mqtt/front", CoverPayloads.z2mYaleC4KeypadLock), ("zigbee2mqtt/front", CoverPayloads.z2mYaleC4Jammed)],
                  isOn: false, shownOn: false),
        Situation(name: "ESPHome cover open", action: "esphome_cover: garage/door", messages: [("garage/cover/door/state", CoverPayloads.esphomeCoverOpen)], isOn: true, shownOn: true),
        Situation(name: "ESPHome cover closed", action: "esphome_cover: garage/door", messages: [("garage/cover/door/state", CoverPayloads.esphomeCoverClosed)], isOn: false, shownOn: false),
        Situation(name: "ESPHome cover unknown is not closed", action: "esphome_cover: garage/door",
                  messages: [("garage/cover/door/state", CoverPayloads.esphomeCoverClosed), ("garage/cover/door/state", CoverPayloads.esphomeCoverUnknown)],
                  isOn: nil, shownOn: true),
        Situation(name: "ESPHome cover opening is open", action: "esphome_cover: garage/door",
                  messages: [("garage/cover/door/state", CoverPayloads.esphomeCoverClosed), ("garage/cover/door/state", CoverPayloads.esphomeCoverOpening)],
                  isOn: true, shownOn: true, motion: .towardOn),
        Situation(name: "ESPHome cover closing is still open", action: "esphome_cover: garage/door",
                  messages: [("garage/cover/door/state", CoverPayloads.esphomeCoverOpen), ("garage/cover/door/state", CoverPayloads.esphomeCoverClosing)],
                  isOn: true, shownOn: true, motion: .towardOff),
        Situation(name: "ESPHome cover position", action: "esphome_cover: garage/door",
                  messages: [("garage/cover/door/position/state", CoverPayloads.esphomeCoverPosition)], isOn: true, shownOn: true),
        Situation(name: "ESPHome lock locked", action: "esphome_lock: hall/front", messages: [("hall/lock/front/state", CoverPayloads.esphomeLockLocked)], isOn: true, shownOn: true),
        Situation(name: "ESPHome lock jammed", action: "esphome_lock: hall/front",
                  messages: [("hall/lock/front/state", CoverPayloads.esphomeLockLocked), ("hall/lock/front/state", CoverPayloads.esphomeLockJammed)], isOn: false, shownOn: false),
        Situation(name: "ESPHome lock locking", action: "esphome_lock: hall/front",
                  messages: [("hall/lock/front/state", CoverPayloads.esphomeLockLocking)], isOn: false, shownOn: false, motion: .towardOn),
        Situation(name: "Shelly roller closing", action: "shelly_roller: shellyswitch25-AB12",
                  messages: [("shellies/shellyswitch25-AB12/roller/0", CoverPayloads.shellyRollerClose)], isOn: true, shownOn: true, motion: .towardOff),
        Situation(name: "Shelly roller closed", action: "shelly_roller: shellyswitch25-AB12",
                  messages: [("shellies/shellyswitch25-AB12/roller/0", CoverPayloads.shellyRollerStop),
                             ("shellies/shellyswitch25-AB12/roller/0/pos", CoverPayloads.shellyRollerPosClosed)], isOn: false, shownOn: false),
        Situation(name: "Shelly roller uncalibrated is never closed", action: "shelly_roller: shellyswitch25-AB12",
                  messages: [("shellies/shellyswitch25-AB12/roller/0", CoverPayloads.shellyRollerStop),
                             ("shellies/shellyswitch25-AB12/roller/0/pos", CoverPayloads.shellyRollerPosUncalibrated)], isOn: nil, shownOn: true),
        Situation(name: "Shelly gen2 stopped part-way", action: "shelly_plus_cover: shellyplus2pm-485519a1ff8c",
                  messages: [("shellyplus2pm-485519a1ff8c/status/cover:0", CoverPayloads.shellyPlusCoverStopped)], isOn: true, shownOn: true),
        Situation(name: "Shelly gen2 uncalibrated stopped", action: "shelly_plus_cover: shellyplus2pm-485519a1ff8c",
                  messages: [("shellyplus2pm-485519a1ff8c/status/cover:0", CoverPayloads.shellyPlusCoverUncalibrated)], isOn: true, shownOn: true),
        Situation(name: "Shelly gen2 position unknown (null)", action: "shelly_plus_cover: shellyplus2pm-485519a1ff8c",
                  messages: [("shellyplus2pm-485519a1ff8c/status/cover:0", CoverPayloads.shellyPlusCoverPositionUnknown)], isOn: true, shownOn: true),
        Situation(name: "Shelly gen2 closed", action: "shelly_plus_cover: shellyplus2pm-485519a1ff8c",
                  messages: [("shellyplus2pm-485519a1ff8c/status/cover:0", CoverPayloads.shellyPlusCoverClosed)], isOn: false, shownOn: false),
        Situation(name: "Shelly gen2 NotifyStatus closing then closed", action: "shelly_plus_cover: shellyplus2pm-485519a1ff8c",
                  messages: [("shellyplus2pm-485519a1ff8c/events/rpc", CoverPayloads.shellyPlusNotifyClosing),
                             ("shellyplus2pm-485519a1ff8c/events/rpc", CoverPayloads.shellyPlusNotifyClosed)], isOn: false, shownOn: false),
        Situation(name: "Shelly gen2 calibrating is not closed", action: "shelly_plus_cover: shellyplus2pm-485519a1ff8c",
                  messages: [("shellyplus2pm-485519a1ff8c/status/cover:0", CoverPayloads.shellyPlusCoverClosed),
                             ("shellyplus2pm-485519a1ff8c/events/rpc", CoverPayloads.shellyPlusNotifyCalibrating)], isOn: true, shownOn: true),
        Situation(name: "Shelly gen2 NotifyStatus opening", action: "shelly_plus_cover: shellyplus2pm-485519a1ff8c",
                  messages: [("shellyplus2pm-485519a1ff8c/status/cover:0", CoverPayloads.shellyPlusCoverClosed),
                             ("shellyplus2pm-485519a1ff8c/events/rpc", CoverPayloads.shellyPlusNotifyOpening)], isOn: true, shownOn: true, motion: .towardOn),
        Situation(name: "ESPHome lock unlocking is not locked", action: "esphome_lock: hall/front",
                  messages: [("hall/lock/front/state", CoverPayloads.esphomeLockLocked), ("hall/lock/front/state", CoverPayloads.esphomeLockUnlocking)],
                  isOn: false, shownOn: false, motion: .towardOff),
        Situation(name: "ESPHome lock unknown is not locked", action: "esphome_lock: hall/front",
                  messages: [("hall/lock/front/state", CoverPayloads.esphomeLockLocked), ("hall/lock/front/state", CoverPayloads.esphomeLockUnknown)],
                  isOn: nil, shownOn: false),
        Situation(name: "ESPHome lock unlocked", action: "esphome_lock: hall/front",
                  messages: [("hall/lock/front/state", CoverPayloads.esphomeLockUnlocked)], isOn: false, shownOn: false),
        Situation(name: "Shelly gen2 NotifyStatus closing", action: "shelly_plus_cover: shellyplus2pm-485519a1ff8c",
                  messages: [("shellyplus2pm-485519a1ff8c/events/rpc", CoverPayloads.shellyPlusNotifyClosing)], isOn: true, shownOn: true, motion: .towardOff),
        Situation(name: "Tasmota shutter closing", action: "tasmota_shutter: blinds",
                  messages: [("stat/blinds/RESULT", CoverPayloads.tasmotaShutterClosing)], isOn: true, shownOn: true, motion: .towardOff),
        Situation(name: "Tasmota shutter closed", action: "tasmota_shutter: blinds",
                  messages: [("stat/blinds/RESULT", CoverPayloads.tasmotaShutterClosing), ("stat/blinds/RESULT", CoverPayloads.tasmotaShutterClosed)],
                  isOn: false, shownOn: false),
        Situation(name: "Tasmota shutter SENSOR", action: "tasmota_shutter: blinds",
                  messages: [("tele/blinds/SENSOR", CoverPayloads.tasmotaSensorOpen)], isOn: true, shownOn: true),
        Situation(name: "Tasmota SHUTTER1 raw", action: "tasmota_shutter: blinds",
                  messages: [("stat/blinds/SHUTTER1", CoverPayloads.tasmotaRawClosed)], isOn: false, shownOn: false),
        // Issue 39 §3: the answer to a ShutterPosition command is its target, not a position: not read.
        Situation(name: "Tasmota 8 ShutterPosition1 answer", action: "tasmota_shutter: blinds",
                  messages: [("stat/blinds/RESULT", CoverPayloads.tasmotaOldPositionAnswer)], isOn: nil, shownOn: true),
        Situation(name: "Tasmota 7 lower-case direction closing", action: "tasmota_shutter: blinds",
                  messages: [("tele/blinds/SENSOR", CoverPayloads.tasmota7SensorClosing)], isOn: true, shownOn: true, motion: .towardOff),
        Situation(name: "Tasmota 7 closed at the end of a travel", action: "tasmota_shutter: blinds",
                  messages: [("tele/blinds/SENSOR", CoverPayloads.tasmota7SensorClosing), ("stat/blinds/RESULT", CoverPayloads.tasmota7ResultClosed)],
                  isOn: false, shownOn: false),
        Situation(name: "Tasmota 7 stopped part-way", action: "tasmota_shutter: blinds",
                  messages: [("tele/blinds/SENSOR", CoverPayloads.tasmota7SensorClosing), ("stat/blinds/RESULT", CoverPayloads.tasmota7ResultStopped)],
                  isOn: true, shownOn: true),
        Situation(name: "Tasmota shutter 2 ignores shutter 1", action: "tasmota_shutter: blinds\nchannel: 2",
                  messages: [("stat/blinds/RESULT", CoverPayloads.tasmotaShutterClosed)], isOn: nil, shownOn: true),
    ]

    @Test(arguments: situations)
    func situation(_ situation: Situation) throws {
        var harness = try BridgeHarness(action: situation.action, states: [])
        var warnings: [String] = []
        for (topic, payload) in situation.messages {
            #expect(Self.wordsNotUnderstood(harness, topic, payload).isEmpty, "\(topic) \(payload)")
            let effects = harness.message(topic, payload)
            warnings += effects.logTexts.filter { $0.0 == .warning && $0.1.contains("ignoring payload") }.map(\.1)
            harness.ackAll(effects)
        }
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(harness.device.isOn == situation.isOn)
        #expect(harness.device.motion == situation.motion)
        #expect(harness.bridge.renderedBody(slug: "home")?.contains(situation.shownOn ? #""on":true"# : #""on":false"#) == true)
    }

    /// The fields of `payload` the preset listens to on `topic` that none of
    /// its sources on that field understands: every word a firmware sends is
    /// read, even where another field of the same message says enough.
    static func wordsNotUnderstood(_ harness: BridgeHarness, _ topic: String, _ payload: String) -> [String] {
        let sources = (harness.bridge.actionsByKey[ActionKey(slug: "home", actionId: "dev")]?.stateSources ?? []).filter { $0.topic == topic }
        let parsed = ParsedPayload(Array(payload.utf8), fields: Set(sources.compactMap(\.field)))
        let byField = Dictionary(grouping: sources) { $0.field?.joined(separator: ".") ?? "" }
        return byField.compactMap { field, group in
            let verdicts = group.map { MessageInterpreter.stateVerdict(parsed, $0) }
            let misread = verdicts.allSatisfy { if case .notUnderstood = $0 { true } else { false } }
            return misread ? field : nil
        }
    }

    struct Command: Sendable, CustomStringConvertible {
        var action: String
        var state: (String, String)
        var value: Bool
        var topic: String
        var payload: String
        var description: String { "\(action) \(value)" }
    }

    /// Each preset's open/close and lock/unlock command, exactly.
    static let commands: [Command] = [
        Command(action: "zigbee2mqtt_cover: garage", state: ("zigbee2mqtt/garage", CoverPayloads.z2mCoverOpen), value: false,
                topic: "zigbee2mqtt/garage/set", payload: #"{"state":"CLOSE"}"#),
        Command(action: "zigbee2mqtt_cover: garage", state: ("zigbee2mqtt/garage", CoverPayloads.z2mCoverClosed), value: true,
                topic: "zigbee2mqtt/garage/set", payload: #"{"state":"OPEN"}"#),
        Command(action: "zigbee2mqtt_lock: front", state: ("zigbee2mqtt/front", CoverPayloads.z2mLockUnlocked), value: true,
                topic: "zigbee2mqtt/front/set", payload: #"{"state":"LOCK"}"#),
        Command(action: "zigbee2mqtt_lock: front\nallow_unlock: true", state: ("zigbee2mqtt/front", CoverPayloads.z2mLockLocked), value: false,
                topic: "zigbee2mqtt/front/set", payload: #"{"state":"UNLOCK"}"#),
        Command(action: "esphome_cover: garage/door", state: ("garage/cover/door/state", "open"), value: false,
                topic: "garage/cover/door/command", payload: "CLOSE"),
        Command(action: "esphome_lock: hall/front", state: ("hall/lock/front/state", "UNLOCKED"), value: true,
                topic: "hall/lock/front/command", payload: "LOCK"),
        Command(action: "shelly_plus_cover: p2", state: ("p2/status/cover:0", CoverPayloads.shellyPlusCoverStopped), value: false,
                topic: "p2/command/cover:0", payload: "close"),
        Command(action: "shelly_roller: s25", state: ("shellies/s25/roller/0/pos", "100"), value: false,
                topic: "shellies/s25/roller/0/command", payload: "close"),
        Command(action: "tasmota_shutter: blinds", state: ("stat/blinds/RESULT", CoverPayloads.tasmotaSensorOpen), value: false,
                topic: "cmnd/blinds/ShutterClose1", payload: ""),
        Command(action: "tasmota_shutter: blinds\nchannel: 2", state: ("stat/blinds/SHUTTER2", "0"), value: true,
                topic: "cmnd/blinds/ShutterOpen2", payload: ""),
    ]

    @Test(arguments: commands)
    func command(_ command: Command) throws {
        var harness = try BridgeHarness(action: command.action, states: [command.state])
        let sent = harness.press(command.value, id: "evt_1").outgoing
        #expect(sent.map(\.topic) == [command.topic])
        #expect(sent.map { String(decoding: $0.payload, as: UTF8.self) } == [command.payload])
        #expect(sent.map(\.qos) == [1])
        #expect(sent.map(\.retain) == [false])
    }

    /// Each firmware's state query at connect, where it has one (ESPHome retains its states: none).
    @Test func presetsAskForStateAtConnect() throws {
        let presets = ["tasmota_shutter: blinds", "zigbee2mqtt_cover: garage", "zigbee2mqtt_lock: front", "shelly_plus_cover: p2",
                       "shelly_roller: s25", "esphome_cover: garage/door", "esphome_lock: hall/front"]
        let yaml = ConfigFixture.withAction("id: a0\nlabel: A\n" + presets[0])
            + presets.enumerated().dropFirst().map { "      - id: a\($0.offset)\n        label: A\n        \($0.element)\n" }.joined()
        let config = try #require(ConfigLoader.load(text: yaml, fileName: "bridge.yaml").config)
        var bridge = Bridge(config: config)
        let published = bridge.handle(BridgeInput(.mqttConnected, boardClockMs: 1)).compactMap { effect -> String? in
            if case .publishMQTT(let message) = effect { "\(message.topic) \(String(decoding: message.payload, as: UTF8.self))" } else { nil }
        }
        #expect(published.sorted() == [
            "cmnd/blinds/Status 10", "p2/command status_update", "shellies/s25/command update",
            "zigbee2mqtt/front/get {\"state\":\"\"}", "zigbee2mqtt/garage/get {\"position\":\"\"}",
        ])
    }

    @Test func aPresetsDeviceCannotBeContradicted() {
        let (_, result) = ConfigFixture.loadAction("id: dev\nlabel: Device\nesphome_lock: hall/front\ndevice: cover")
        #expect(result.errors.map(\.message) == ["'device' in action 'dev' is 'cover', but 'esphome_lock' drives a lock; remove 'device'"])
    }
}

/// Issue 20 section 6: `watch` says what each cover and lock reading means.
@Suite("watch: what a cover's and a lock's readings mean")
struct CoverWatchTests {
    @Test func readingsAreNamedAsTheDeviceMeansThem() throws {
        let yaml = ConfigFixture.withAction("id: door\nlabel: Door\nshelly_plus_cover: p2")
            + "      - id: lock\n        label: Lock\n        esphome_lock: hall/front\n"
        let config = try #require(ConfigLoader.load(text: yaml, fileName: "bridge.yaml").config)
        var session = WatchSession(config: config)
        let stopped = session.message(topic: "p2/status/cover:0", payload: Array(CoverPayloads.shellyPlusCoverStopped.utf8), elapsedMs: 0)
        #expect(stopped.map(\.word) == ["stopped at 47 %"])   // one event per action and role: the state word and the position
        #expect(session.records.first?.stateWord == "open, stopped at 47 %")
        let closing = session.message(topic: "p2/events/rpc", payload: Array(CoverPayloads.shellyPlusNotifyClosing.utf8), elapsedMs: 1)
        #expect(closing.map(\.word).first == "closing")
        let closed = session.message(topic: "p2/events/rpc", payload: Array(CoverPayloads.shellyPlusNotifyClosed.utf8), elapsedMs: 2)
        #expect(closed.map(\.word).first == "closed")
        let jammed = session.message(topic: "hall/lock/front/state", payload: Array("JAMMED".utf8), elapsedMs: 3)
        #expect(jammed.map(\.word) == ["jammed"])
        #expect(WatchFormat.human(jammed[0]).hasSuffix("-> jammed (the lock is jammed: not locked)"))
        #expect(session.records.map(\.stateWord) == ["closed", "unlocked, jammed"])
    }

    /// Follow-up item 4: a cover that stopped part-way reads "stopped at 47 %",
    /// whichever firmware says it, in one message or in two.
    @Test(arguments: [
        ("tasmota_shutter: blinds", [("stat/blinds/RESULT", #"{"Shutter1":{"Position":60,"Direction":-1,"Target":0,"Tilt":0}}"#),
                                     ("stat/blinds/RESULT", #"{"Shutter1":{"Position":47,"Direction":0,"Target":0,"Tilt":0}}"#)]),
        ("zigbee2mqtt_cover: blind", [("zigbee2mqtt/blind", CoverPayloads.z2mTuyaMovingDown),
                                      ("zigbee2mqtt/blind", #"{"moving":"STOP","position":47,"state":"OPEN"}"#)]),
        ("shelly_roller: s25", [("shellies/s25/roller/0", "close"), ("shellies/s25/roller/0/pos", "60"),
                                ("shellies/s25/roller/0", "stop"), ("shellies/s25/roller/0/pos", "47")]),
        ("esphome_cover: garage/door", [("garage/cover/door/state", "closing"), ("garage/cover/door/position/state", "47"),
                                        ("garage/cover/door/state", "open")]),
    ])
    func aCoverStoppedPartWayReadsStoppedAt47(_ action: String, _ messages: [(String, String)]) throws {
        let config = try #require(ConfigLoader.load(text: ConfigFixture.withAction("id: door\nlabel: Door\n" + action), fileName: "bridge.yaml").config)
        var session = WatchSession(config: config)
        var words: [String] = []
        for (index, (topic, payload)) in messages.enumerated() {
            words += session.message(topic: topic, payload: Array(payload.utf8), elapsedMs: Int64(index)).map(\.word)
        }
        #expect(session.records.first?.stateWord == "open, stopped at 47 %", "\(words)")
        if messages.count == 2 { #expect(words.last == "stopped at 47 %") }
    }
}
