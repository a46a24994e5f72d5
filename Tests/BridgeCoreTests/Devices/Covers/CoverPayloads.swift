/// Payloads of real covers and locks, each with where it comes from.
enum CoverPayloads {
    // MARK: zigbee2mqtt (Koenkk/zigbee-herdsman-converters src/converters/fromZigbee.ts)

    /// `cover_position_tilt`: `position` is 100 - currentPositionLiftPercentage, `state` "CLOSE" at lift 100, else "OPEN".
    static let z2mCoverOpen = #"{"linkquality":120,"position":100,"state":"OPEN"}"#
    static let z2mCoverClosed = #"{"linkquality":120,"position":0,"state":"CLOSE"}"#
    static let z2mCoverPartWay = #"{"linkquality":120,"position":47,"state":"OPEN"}"#
    /// src/devices/tuya.ts cover datapoint 1: `lookup({OPEN: enum(0), STOP: enum(1), CLOSE: enum(2)})`.
    static let z2mTuyaStopped = #"{"position":47,"state":"STOP"}"#
    /// src/lib/tuya.ts `cover_options`: `moving` = {0: "UP", 1: "STOP", 2: "DOWN"}[tuyaMovingState], published
    /// with the device's whole state (zigbee2mqtt sends the cached position and state beside it).
    static let z2mTuyaMovingDown = #"{"moving":"DOWN","position":60,"state":"OPEN"}"#
    static let z2mTuyaMovingStop = #"{"moving":"STOP","position":60,"state":"OPEN"}"#
    /// src/devices/livolo.ts `livolo_cover_position`: `{position, moving: true}` after a command; exposes
    /// `e.binary("moving", ea.STATE, true, false)`.
    static let z2mLivoloMoving = #"{"moving":true,"position":40,"state":"OPEN"}"#
    static let z2mLivoloStill = #"{"moving":false,"position":40,"state":"OPEN"}"#
    /// src/devices/sonoff.ts curtain: `moving` = enumLookup {stop: 0, forward: 1, reverse: 2} (motorRunStatus).
    static let z2mSonoffForward = #"{"moving":"forward","position":55,"state":"OPEN"}"#
    static let z2mSonoffStop = #"{"moving":"stop","position":55,"state":"OPEN"}"#
    /// src/devices/bosch.ts shutter: `motor_state` enum stopped / opening / closing beside `e.cover_position()`.
    static let z2mMotorClosing = #"{"motor_state":"closing","position":60,"state":"OPEN"}"#
    static let z2mMotorStoppedClosed = #"{"motor_state":"stopped","position":0,"state":"CLOSE"}"#
    /// src/devices/lumi.ts ZNJLBL01LM (roller shade E1): `motor_state` closing / opening / stopped / blocked;
    /// another Lumi driver's enum adds `pause`.
    static let z2mLumiBlocked = #"{"motor_state":"blocked","position":60,"state":"OPEN","running":false}"#
    static let z2mLumiPause = #"{"motor_state":"pause","position":60,"state":"OPEN"}"#
    /// `lock`: `state` = lockState 1 ? "LOCK" : "UNLOCK"; `lock_state` = ["not_fully_locked", "locked", "unlocked"][lockState]
    /// (src/lib/exposes.ts `Lock.withLockState`: those three values only).
    static let z2mLockLocked = #"{"lock_state":"locked","state":"LOCK","battery":87}"#
    static let z2mLockNotFully = #"{"lock_state":"not_fully_locked","state":"UNLOCK","battery":87}"#
    static let z2mLockUnlocked = #"{"lock_state":"unlocked","state":"UNLOCK","battery":87}"#
    /// src/devices/yale.ts: a jam is `{action: "error_jammed", state: "UNLOCK", lock_state: "not_fully_locked"}`;
    /// the C4 module's alarms write `state` LOCKED / UNLOCKED (not LOCK / UNLOCK) beside `lock_state`.
    static let z2mYaleJammed = #"{"action":"error_jammed","lock_state":"not_fully_locked","state":"UNLOCK"}"#
    static let z2mYaleC4KeypadLock = #"{"action":"keypad_lock","lock_state":"locked","state":"LOCKED"}"#
    static let z2mYaleC4Jammed = #"{"alarm":"deadbolt_jammed","lock_state":"not_fully_locked","state":"UNLOCKED"}"#

    // MARK: ESPHome (esphome/esphome esphome/components/mqtt/mqtt_cover.cpp, mqtt_lock.cpp)

    /// mqtt_cover.cpp `publish_state()` on `NODE/cover/NAME/state`: `opening` / `closing` while it moves, else
    /// `closed` at position 0, `open` at 1.0 or part-way when it supports a position, `unknown` part-way when it
    /// does not; with position support, also `value_accuracy_to_string(roundf(position * 100), 0)` on `.../position/state`.
    static let esphomeCoverOpen = "open"
    static let esphomeCoverClosed = "closed"
    static let esphomeCoverUnknown = "unknown"
    static let esphomeCoverOpening = "opening"
    static let esphomeCoverClosing = "closing"
    static let esphomeCoverPosition = "47"
    /// mqtt_lock.cpp publishes `lock_state_to_string()` (lock.cpp): LOCKED, UNLOCKED, JAMMED, LOCKING, UNLOCKING, UNKNOWN.
    static let esphomeLockLocked = "LOCKED"
    static let esphomeLockJammed = "JAMMED"
    static let esphomeLockLocking = "LOCKING"
    static let esphomeLockUnlocking = "UNLOCKING"
    static let esphomeLockUnlocked = "UNLOCKED"
    static let esphomeLockUnknown = "UNKNOWN"

    // MARK: Shelly gen1 (shelly-api-docs.shelly.cloud/gen1 Shelly 2.5 MQTT, roller mode; the same topics in
    // iobroker-community-adapters/ioBroker.shelly src/lib/devices/gen1/shellyswitch25.ts, `Shutter.state` and
    // `Shutter.Position`: `roller/0` open/close/stop, `roller/0/pos` with -1 when not calibrated)

    /// `shellies/<id>/roller/0`: "open, close or stop"; `.../roller/0/pos`: "0-100, -1 if not calibrated".
    static let shellyRollerClose = "close"
    static let shellyRollerStop = "stop"
    static let shellyRollerPosClosed = "0"
    static let shellyRollerPosUncalibrated = "-1"

    // MARK: Shelly gen2/gen3 (shelly-api-docs.shelly.cloud/gen2/ComponentsAndServices/Cover, Cover.GetStatus;
    // a copy of that page is in iobroker-community-adapters/ioBroker.shelly shelly-api/Gen2/components)

    /// `state` open/closed/opening/closing/stopped/calibrating; `current_pos` only with `pos_control: true`,
    /// and null "if the position is unknown". MQTT Control: `status/cover:N` answers `status_update`.
    static let shellyPlusCoverStopped =
        #"{"id":0,"source":"WS_in","state":"stopped","apower":0.0,"voltage":231.6,"current":0.000,"pf":0.00,"freq":50.0,"aenergy":{"total":0.003,"by_minute":[0,0,0],"minute_ts":1654511260},"temperature":{"tC":41.6,"tF":106.9},"pos_control":true,"last_direction":"open","current_pos":47}"#
    static let shellyPlusCoverUncalibrated =
        #"{"id":0,"source":"init","state":"stopped","apower":0.0,"voltage":231.6,"current":0.000,"pf":0.00,"freq":50.0,"aenergy":{"total":0.000,"by_minute":[0,0,0],"minute_ts":1654511260},"temperature":{"tC":40.1,"tF":104.2},"pos_control":false}"#
    static let shellyPlusCoverPositionUnknown =
        #"{"id":0,"source":"init","state":"stopped","apower":0.0,"pos_control":true,"last_direction":null,"current_pos":null}"#
    static let shellyPlusCoverClosed =
        #"{"id":0,"source":"limit_switch","state":"closed","apower":0.0,"pos_control":true,"last_direction":"close","current_pos":0}"#
    /// gen2/General/Notifications: NotifyStatus carries the changed part of `cover:0`.
    static let shellyPlusNotifyClosing =
        #"{"src":"shellyplus2pm-485519a1ff8c","dst":"shellyplus2pm-485519a1ff8c/events","method":"NotifyStatus","params":{"ts":1654511286.55,"cover:0":{"id":0,"state":"closing"}}}"#
    static let shellyPlusNotifyOpening =
        #"{"src":"shellyplus2pm-485519a1ff8c","dst":"shellyplus2pm-485519a1ff8c/events","method":"NotifyStatus","params":{"ts":1654511320.10,"cover:0":{"id":0,"state":"opening"}}}"#
    /// `Cover.Calibrate` runs the cover end to end: `state` "calibrating" until it is done.
    static let shellyPlusNotifyCalibrating =
        #"{"src":"shellyplus2pm-485519a1ff8c","dst":"shellyplus2pm-485519a1ff8c/events","method":"NotifyStatus","params":{"ts":1654511340.40,"cover:0":{"id":0,"state":"calibrating"}}}"#
    static let shellyPlusNotifyClosed =
        #"{"src":"shellyplus2pm-485519a1ff8c","dst":"shellyplus2pm-485519a1ff8c/events","method":"NotifyStatus","params":{"ts":1654511301.02,"cover:0":{"id":0,"current_pos":0,"state":"closed"}}}"#

    // MARK: Tasmota (arendst/Tasmota tasmota/tasmota_xdrv_driver/xdrv_27_shutter.ino, ShutterReportPosition)

    /// `"Shutter%d":{"Position":%d,"Direction":%d,"Target":%d,"Tilt":%d}` in RESULT while moving and at rest.
    static let tasmotaShutterClosing = #"{"Shutter1":{"Position":60,"Direction":-1,"Target":0,"Tilt":0}}"#
    static let tasmotaShutterClosed = #"{"Shutter1":{"Position":0,"Direction":0,"Target":0,"Tilt":0}}"#
    /// The same object in telemetry (`tele/T/SENSOR`).
    static let tasmotaSensorOpen = #"{"Time":"2024-03-02T10:11:12","Shutter1":{"Position":100,"Direction":0,"Target":100,"Tilt":0}}"#
    /// `CmndShutterPosition` answers with `ShutterReportPosition(true, index)` in new drivers; older ones (Tasmota 8)
    /// answered `ResponseCmndIdxNumber(target)`: the target of the command, not a position (issue 39 §3; an empty
    /// payload drove the 2019 driver closed, issue 39 §1, so no preset asks with it):
    static let tasmotaOldPositionAnswer = #"{"ShutterPosition1":47}"#
    /// The 2019 driver (arendst/Tasmota tasmota/xdrv_27_shutter.ino of Tasmota 7, before ShutterButton and
    /// ShutterLock: `JSON_SHUTTER_POS` is `"Shutter%d":{"Position":%d,"direction":%d}`) wrote `direction` in lower
    /// case and no Target: in telemetry (`FUNC_JSON_APPEND`, with the direction it moves in) and, at the end of a
    /// travel, on RESULT (`ShutterUpdatePosition`, direction 0).
    static let tasmota7SensorClosing = #"{"Time":"2019-12-01T10:11:12","Shutter1":{"Position":60,"direction":-1}}"#
    static let tasmota7ResultClosed = #"{"Shutter1":{"Position":0,"direction":0}}"#
    static let tasmota7ResultStopped = #"{"Shutter1":{"Position":47,"direction":0}}"#
    /// At the end of a travel, `ShutterUpdatePosition` publishes the bare position on `stat/T/SHUTTER1`
    /// (unless SetOption90), then the JSON report.
    static let tasmotaRawClosed = "0"
}
