import MQTTShell
import ShellSupport

/// Devices that behave like real ones on the demo's broker, so every tile state
/// can be seen: a zigbee2mqtt light that echoes its state after a realistic
/// delay, a Tasmota plug, scenes, one device that is offline, one that never
/// answers, an ESPHome garage door that travels 6 s and an ESPHome lock.
final class VirtualDevices: Sendable {
    struct State: Sendable {
        var porchOn = false
        var fountainOn = false
        var isDoorOpen = false
        var isLocked = true
        var isOldDoorClosed = true
        var isOldDoorMoving = false
    }

    /// How long the demo's garage door travels, and its lock's bolt.
    static let doorTravelMs: Int64 = 6_000
    static let boltTravelMs: Int64 = 1_500
    /// The pulsed door: 9 s from end to end; its reed contact opens 1 s into an
    /// opening and closes only when the door is down. The relay's auto-off
    /// (Shelly `auto_off_delay`) ends the pulse after 0.5 s.
    static let oldDoorTravelMs: Int64 = 9_000
    static let relayAutoOffMs: Int64 = 500
    static let oldDoorRelay = "shellyplus1-garage/command/switch:0"
    static let oldDoorContact = "zigbee2mqtt/garage_contact"

    let client: MQTTClient
    let scheduler: DeviceScheduler
    let log: DemoLog
    private let state = ConditionLock(State())

    init(brokerPort: Int, log: DemoLog) throws(ProcessStartError) {
        do { scheduler = try DeviceScheduler() } catch { throw .cannotStart("the device scheduler", "\(error)") }
        self.log = log
        let box = ConditionLock<VirtualDevices?>(nil)
        client = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: brokerPort, clientId: "demo-devices")) { event in
            box.withLock { $0 }?.handle(event)
        }
        box.withLock { $0 = self }
        do {
            try client.setSubscriptions(["zigbee2mqtt/porch/set", "zigbee2mqtt/porch/get", "cmnd/fountain/POWER", "cmnd/fountain/State",
                                         "home/scene/set", "shellies/garage/relay/0/command", "boiler/switch/heater/command",
                                         "garage/cover/door/command", "hall/lock/front/command", Self.oldDoorRelay])
            try client.start()
        } catch {
            throw .cannotStart("the virtual devices", "\(error)")
        }
    }

    func stop() {
        scheduler.stop()
        client.stop()
    }

    private func handle(_ event: MQTTEvent) {
        switch event {
        case .connected: announce()
        case .message(let message): react(message.topic, String(decoding: message.payload, as: UTF8.self))
        case .disconnected, .dropped, .fatal, .refused, .payloadTooLarge: break
        }
    }

    /// What the devices say when they come online (retained, like the firmwares).
    private func announce() {
        publish("zigbee2mqtt/porch/availability", "{\"state\":\"online\"}", retain: true)
        publish("tele/fountain/LWT", "Online", retain: true)
        publish("stat/fountain/POWER", "OFF")
        publish("shellies/garage/online", "false", retain: true)
        publish("shellies/garage/relay/0", "off", retain: true)
        publish("boiler/status", "online", retain: true)
        publish("boiler/switch/heater/state", "OFF", retain: true)
        publish("home/scene/current", "none", retain: true)
        publish("garage/status", "online", retain: true)
        publish("garage/cover/door/state", "closed", retain: true)
        publish("hall/status", "online", retain: true)
        publish("hall/lock/front/state", "LOCKED", retain: true)
        publish("shellyplus1-garage/online", "true", retain: true)
        publish("shellyplus1-garage/status/switch:0", "{\"id\":0,\"output\":false}", retain: true)
        publish(Self.oldDoorContact, "{\"contact\":true,\"battery\":97,\"linkquality\":110}", retain: true)
    }

    private func react(_ topic: String, _ payload: String) {
        switch topic {
        case "zigbee2mqtt/porch/set":
            let isOn = payload.uppercased().contains("\"ON\"")
            log.append("device porch (zigbee2mqtt): command \(isOn ? "ON" : "OFF"), echo in 350 ms")
            scheduler.after(ms: 350) { [self] in
                state.withLock { $0.porchOn = isOn }
                publish("zigbee2mqtt/porch", "{\"state\":\"\(isOn ? "ON" : "OFF")\",\"brightness\":254,\"linkquality\":120}")
            }
        case "zigbee2mqtt/porch/get":
            let isOn = state.withLock { $0.porchOn }
            publish("zigbee2mqtt/porch", "{\"state\":\"\(isOn ? "ON" : "OFF")\",\"brightness\":254}")
        case "cmnd/fountain/POWER":
            reactTasmota(payload)
        case "cmnd/fountain/State":
            // Tasmota's answer to State: the whole state, every relay in it (MqttShowState).
            let isOn = state.withLock { $0.fountainOn }
            publish("stat/fountain/RESULT", "{\"Uptime\":\"0T00:00:05\",\"UptimeSec\":5,\"POWER\":\"\(isOn ? "ON" : "OFF")\"}")
        case "home/scene/set":
            log.append("scene controller: starting '\(payload)'")
            scheduler.after(ms: 200) { [self] in publish("home/scene/current", payload, retain: true) }
        case "shellies/garage/relay/0/command":
            log.append("device garage (Shelly): offline, the command is lost")
        case "boiler/switch/heater/command":
            log.append("device heater (ESPHome): never answers")
        case "garage/cover/door/command":
            reactDoor(payload.uppercased())
        case "hall/lock/front/command":
            reactLock(payload.uppercased())
        case Self.oldDoorRelay:
            reactOldDoor(payload)
        default:
            break
        }
    }

    private func reactTasmota(_ payload: String) {
        let word = payload.uppercased()
        let current = state.withLock { $0.fountainOn }
        let isOn = word == "ON" || word == "1" ? true : (word == "OFF" || word == "0" ? false : current)
        if !word.isEmpty { log.append("device fountain (Tasmota): command \(word), answers in 150 ms") }
        scheduler.after(ms: 150) { [self] in
            state.withLock { $0.fountainOn = isOn }
            publish("stat/fountain/RESULT", "{\"POWER\":\"\(isOn ? "ON" : "OFF")\"}")
            publish("stat/fountain/POWER", isOn ? "ON" : "OFF")
        }
    }

    /// ESPHome's cover words: opening/closing while it travels, then open/closed.
    private func reactDoor(_ command: String) {
        guard command == "OPEN" || command == "CLOSE" else { return }
        let open = command == "OPEN"
        log.append("device garage door (ESPHome): \(command), travels \(Self.doorTravelMs / 1000) s")
        publish("garage/cover/door/state", open ? "opening" : "closing", retain: true)
        scheduler.after(ms: Self.doorTravelMs) { [self] in
            state.withLock { $0.isDoorOpen = open }
            log.append("device garage door (ESPHome): now \(open ? "open" : "closed")")
            publish("garage/cover/door/state", open ? "open" : "closed", retain: true)
        }
    }

    /// ESPHome's lock words: LOCKING/UNLOCKING while the bolt moves, then LOCKED/UNLOCKED.
    private func reactLock(_ command: String) {
        guard command == "LOCK" || command == "UNLOCK" else { return }
        let lock = command == "LOCK"
        log.append("device front door (ESPHome lock): \(command)")
        publish("hall/lock/front/state", lock ? "LOCKING" : "UNLOCKING", retain: true)
        scheduler.after(ms: Self.boltTravelMs) { [self] in
            state.withLock { $0.isLocked = lock }
            publish("hall/lock/front/state", lock ? "LOCKED" : "UNLOCKED", retain: true)
        }
    }

    /// A Shelly Plus 1 wired like the wall button: `on` closes the relay, its
    /// auto-off opens it 0.5 s later; the door moves the other way each pulse.
    private func reactOldDoor(_ command: String) {
        guard command == "on" else { return }
        publish("shellyplus1-garage/status/switch:0", "{\"id\":0,\"output\":true}", retain: true)
        scheduler.after(ms: Self.relayAutoOffMs) { [self] in
            publish("shellyplus1-garage/status/switch:0", "{\"id\":0,\"output\":false}", retain: true)
        }
        let (wasClosed, wasMoving) = state.withLock { door in
            defer { door.isOldDoorMoving = true }
            return (door.isOldDoorClosed, door.isOldDoorMoving)
        }
        guard !wasMoving else {
            log.append("device old garage door: pulsed while it moves (the bridge never does this inside its travel time)")
            return
        }
        log.append("device old garage door (Shelly relay pulse): \(wasClosed ? "opening" : "closing"), "
                   + "\(Self.oldDoorTravelMs / 1000) s; its contact sensor says open until it is down")
        if wasClosed {
            scheduler.after(ms: 1_000) { [self] in reportContact(closed: false) }
        } else {
            // A zigbee contact sensor's check-in while the door comes down: still open.
            scheduler.after(ms: 3_000) { [self] in reportContact(closed: false) }
        }
        scheduler.after(ms: Self.oldDoorTravelMs) { [self] in
            state.withLock { door in
                door.isOldDoorClosed = !wasClosed
                door.isOldDoorMoving = false
            }
            log.append("device old garage door: now \(wasClosed ? "open" : "closed")")
            if !wasClosed { reportContact(closed: true) }
        }
    }

    /// The contact sensor's report (zigbee2mqtt: `contact: true` is closed).
    private func reportContact(closed: Bool) {
        publish(Self.oldDoorContact, "{\"contact\":\(closed),\"battery\":97,\"linkquality\":110}", retain: true)
    }

    private func publish(_ topic: String, _ payload: String, retain: Bool = false) {
        try? client.publish(topic: topic, payload: Array(payload.utf8), qos: .atLeastOnce, retain: retain)
    }
}
