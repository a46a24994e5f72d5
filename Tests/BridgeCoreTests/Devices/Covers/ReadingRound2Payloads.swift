/// Issue 39 §2-3 and issue 43 defects 1-2: the messages the outside round
/// replayed, each with where it comes from (repository and file, or docs page).
enum ReadingRound2Payloads {
    // MARK: Nuki Hub (technyon/nuki_hub src/NukiNetworkLock.cpp, publishState: the Home Assistant words on
    // `<base>/lock/hastate`, src/MqttTopics.h `mqtt_topic_lock_ha_state`; src/HomeAssistantDiscovery.cpp announces
    // stat_locked locked, stat_unlocked unlocked, stat_locking locking, stat_unlocking unlocking, stat_jam jammed,
    // stat_open open, stat_opening opening)

    static let nukiLocked = "locked"
    static let nukiUnlocked = "unlocked"
    /// `NukiLock::LockState::Unlatched` → "open".
    static let nukiUnlatched = "open"
    /// `NukiLock::LockState::Unlatching` → "opening".
    static let nukiUnlatching = "opening"
    /// Uncalibrated, Calibration, BootRun, MotorBlocked → "jammed".
    static let nukiJammed = "jammed"
    /// Nuki Hub's own `lock/state` words (README "MQTT Interface"): not the Home Assistant topic's,
    /// a word the tile never knew: never locked.
    static let nukiUnknownWord = "bootRun"
    /// The keys the man page (switchboard-bridge.yaml(5), "Covers and locks") names for a Nuki Hub lock.
    static let nukiAction = """
        device: lock
        state_topic: nuki/lock/hastate
        command_topic: nuki/lock/action
        payload_on: lock
        payload_off: unlock
        on_value: locked
        off_value: unlocked
        locking_value: locking
        unlocking_value: unlocking
        jammed_value: jammed
        unlatched_value: open
        unlatching_value: opening
        availability_topic: nuki/maintenance/mqttConnectionState
        """

    // MARK: Tasmota shutters (arendst/Tasmota tasmota/xdrv_27_shutter.ino: the position reported is
    // `(Settings.shutter_options[i] & 1) ? 100 - position : position`, ShutterInvert 1 sets bit 0)

    /// `ShutterInvert 1`, fully open: Position 0.
    static let tasmotaInvertedOpen = #"{"Shutter1":{"Position":0,"Direction":0,"Target":0,"Tilt":0}}"#
    /// `ShutterInvert 1`, fully closed: Position 100.
    static let tasmotaInvertedClosed = #"{"Shutter1":{"Position":100,"Direction":0,"Target":100,"Tilt":0}}"#
    /// `CmndShutterPosition` (Tasmota 8, tasmota/xdrv_27_shutter.ino) answers a `ShutterPosition1 0` command with
    /// `ResponseCmndIdxNumber(target)` at once, while the blind still stands at 50: a target.
    static let tasmotaPositionCommandAnswer = #"{"ShutterPosition1":0}"#
    static let tasmotaAt50 = #"{"Shutter1":{"Position":50,"Direction":0,"Target":50,"Tilt":0}}"#
    /// ShutterStartInit sets the direction; ShutterReportPosition(true) reports it before the position moves.
    static let tasmotaStartingToOpenFromClosed = #"{"Shutter1":{"Position":0,"Direction":1,"Target":100,"Tilt":0}}"#
    static let tasmotaClosed = #"{"Shutter1":{"Position":0,"Direction":0,"Target":0,"Tilt":0}}"#
    /// Issue 43, defect 1: a fractional position (the outside fuzzing round's minimised input).
    static let tasmotaFractional = #"{"Shutter1":{"Position":0.4}}"#
    /// `Status 10` answer (tasmota/support_command.ino CmndStatus → MqttShowSensor → the driver's FUNC_JSON_APPEND),
    /// on `stat/T/STATUS10`.
    static let tasmotaStatus10Open =
        #"{"StatusSNS":{"Time":"2024-03-02T10:11:12","Shutter1":{"Position":100,"Direction":0,"Target":100,"Tilt":0}}}"#
    static let tasmotaStatus10Closed =
        #"{"StatusSNS":{"Time":"2024-03-02T10:11:12","Shutter1":{"Position":0,"Direction":0,"Target":0,"Tilt":0}}}"#

    // MARK: zigbee2mqtt (Koenkk/zigbee-herdsman-converters src/lib/exposes.ts `invert_cover`: "open=0, close=100";
    // Koenkk/zigbee2mqtt lib/extension/publish.ts: a converter's returned state is published at once, merged with
    // the cached one)

    /// A Lumi curtain with `invert_cover: true`, fully open.
    static let z2mInvertedOpen = #"{"position":0,"state":"OPEN"}"#
    static let z2mInvertedClosed = #"{"position":100,"state":"CLOSE"}"#
    /// The state and position disagree: open wins.
    static let z2mOpenAtZero = #"{"state":"OPEN","position":0}"#
    static let z2mOpenAtFraction = #"{"state":"OPEN","position":0.4}"#
    /// toZigbee `cover_position_tilt` returns `{state: {position: value}}`: the optimistic echo of a
    /// `{"position":0}` command, merged with the cached `state` OPEN, before the motor moved.
    static let z2mPositionCommandEcho = #"{"position":0,"state":"OPEN"}"#
    /// Issue 43, defect 1: a fractional position, as a number and as a string.
    static let z2mFractional = #"{"position":0.4}"#
    static let z2mFractionalString = #"{"position":"0.4"}"#
    /// A healthy zigbee2mqtt lock (src/converters/fromZigbee.ts `lock`): `LOCK`, which the Yale C4 word list
    /// (`LOCKED`) of the same preset does not know.
    static let z2mLockHealthy = #"{"lock_state":"locked","state":"LOCK"}"#
    /// The state word says locked, `lock_state` says otherwise: not locked.
    static let z2mLockDisagree = #"{"lock_state":"not_fully_locked","state":"LOCK"}"#

    // MARK: Shelly gen1 (shelly-api-docs.shelly.cloud/gen1 Shelly 2.5 MQTT: `roller/0/pos` "0-100, -1 if not calibrated")

    static let shellyPosUncalibrated = "-1"
    /// Issue 43, defect 1; issue 39 §3: numbers near 0 that are not 0.
    static let shellyPosFractions = ["0.9", "0.6", "-0", "-0.9", "-0.5", "101", "1e2"]

    // MARK: ESPHome (esphome/esphome esphome/components/mqtt/mqtt_cover.cpp, position/state; mqtt_lock.cpp)

    /// Issue 43, defect 1: `-0.5` on `position/state`.
    static let esphomeNegativeFraction = "-0.5"
    /// Issue 43, defect 2: `LOC\u{212A}ED` (KELVIN SIGN for K) folds to "locked" the Unicode way, not the ASCII way.
    static let kelvinLocked = "LOC\u{212A}ED"
}
