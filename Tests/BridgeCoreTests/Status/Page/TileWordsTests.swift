import Testing
@testable import BridgeCore

/// Issue 39 §5 and issue 41 §3: the pages draw doors and locks with their own
/// words (the template's `state_words`, passed through; Open/Closed and
/// Locked/Unlocked where the content names none) and icons, what the device
/// says beyond them (Offline, Jammed), and why a press did nothing.
@Suite("Pages: a tile's own words, icons and reasons")
struct TileWordsTests {
    static let doorWords = #"{"on":"Open","off":"Closed","turning_on":"Opening","turning_off":"Closing"}"#

    static func face(_ state: TileFaceState, on: Bool, icon: String, words: String = doorWords) throws -> TileFace {
        TileFace(id: "door", label: "Garage door", isToggle: true, state: state, isShownOn: on, icon: icon,
                 stateWords: TileStateWords(try JSONValue.parse(words)))
    }

    @Test(arguments: [(TileFaceState.off, false, "Closed"), (.on, true, "Open"), (.turningOn, false, "Opening"),
                      (.turningOff, true, "Closing"), (.noResponse, true, "No response")])
    func theTemplatesStateWordsNameTheStates(_ state: TileFaceState, _ on: Bool, _ word: String) throws {
        let html = SwitchboardTileHTML.tile(try Self.face(state, on: on, icon: "door.garage.closed"), isPressable: true)
        #expect(html.contains("<span class=\"second\(state == .noResponse ? " warn" : "")\">\(word)</span>"), "\(html)")
        #expect(html.contains("aria-label=\"Garage door, \(word)\""), "\(html)")
        #expect(html.contains("data-state=\"\(state.rawValue)\""), "the app's state stays in the data")
    }

    @Test func stateWordsAreBoundedAndOnlyStringsOfKnownStatesCount() throws {
        let words = TileStateWords(try JSONValue.parse(#"{"on":"Open","off":7,"bogus":"x","turning_on":""}"#))
        #expect(words.word(for: .on) == "Open")
        #expect(words.word(for: .off) == nil && words.word(for: .turningOn) == nil)
        let long = TileStateWords(.object([JSONMember("on", .string(String(repeating: "x", count: 500)))]))
        #expect(long.word(for: .on) == String(repeating: "x", count: TileStateWords.maxScalars) + "…[+460]")
        #expect(TileStateWords(.string("Open")).words.isEmpty)
        #expect(TileFaceState.allCases.allSatisfy { TileFaceState(templateKey: $0.templateKey) == $0 })
    }

    @Test func anOpenDoorAndAnUnlockedLockAreDrawnOpen() throws {
        let closed = SwitchboardTileHTML.tile(try Self.face(.off, on: false, icon: "door.garage.closed"), isPressable: false)
        let open = SwitchboardTileHTML.tile(try Self.face(.on, on: true, icon: "door.garage.closed"), isPressable: false)
        #expect(closed.contains(TileIcon.shape("door.garage.closed")) && !closed.contains(TileIcon.openGarageShape))
        #expect(open.contains(TileIcon.openGarageShape))
        #expect(TileIcon.shape("lock.fill", isShownOn: true) == TileIcon.shape("lock.fill"))
        #expect(TileIcon.shape("lock.fill", isShownOn: false) == TileIcon.openLockShape)
        #expect(TileIcon.shape("lightbulb.fill", isShownOn: true) == TileIcon.shape("lightbulb.fill"))
    }

    static func lockAction(allowUnlock: Bool = false) -> ActionConfig {
        var action = ActionConfig(id: "front", label: "Front door", kind: .toggle,
                                  stateSources: [StateSource(topic: "hall/lock/front/state")], command: ToggleCommand(topic: "hall/lock/front/command"))
        action.device = .lock
        action.allowUnlock = allowUnlock
        return action
    }

    @Test func aDoorOrLockWithoutStateWordsIsDrawnWithItsOwnAndItsReading() {
        let resting = TileFace(id: "front", label: "Front door", isToggle: true, state: .off, isShownOn: false, icon: "lock.fill")
        var state = ActionState()
        state.isOn = false
        let unlocked = TileNote.annotated(resting, Self.lockAction(), state, ActionFacts(), isNeverHeard: false, nowMs: 0)
        #expect(unlocked.stateWord == "Unlocked")
        state.lastReading = .reading(.jammed)
        let jammed = TileNote.annotated(resting, Self.lockAction(), state, ActionFacts(), isNeverHeard: false, nowMs: 0)
        #expect(jammed.stateWord == "Jammed")
        #expect(jammed.note == "the lock reports it is jammed")
        state.isAvailable = false
        let offline = TileNote.annotated(resting, Self.lockAction(), state, ActionFacts(), isNeverHeard: false, nowMs: 0)
        #expect(offline.stateWord == "Offline", "an offline device does not read like Off (or Unlocked)")
        #expect(offline.note?.hasPrefix("offline") == true)
        // A plain switch offline reads Offline too, not Off.
        var light = Self.lockAction()
        light.device = .plainSwitch
        let plain = TileFace(id: "front", label: "Light", isToggle: true, state: .off, isShownOn: false)
        #expect(TileNote.annotated(plain, light, state, ActionFacts(), isNeverHeard: false, nowMs: 0).stateWord == "Offline")
    }

    @Test(arguments: [
        (PressFactOutcome.refused("this lock tile only locks"), "last press did nothing: this lock tile only locks"),
        (.refused("skipped by the scene 'leaving': pulsed inside its travel time"),
         "last press did nothing: skipped by the scene 'leaving': pulsed inside its travel time"),
        (.deviceUnavailable, "last press did nothing: the device is offline"),
        (.answeredWithTruth(afterMs: 5_000), "last press: the device did not answer within 5 s; showing what it last reported"),
    ])
    func whyAPressDidNothing(_ outcome: PressFactOutcome, _ note: String) {
        var facts = ActionFacts()
        facts.lastPress = PressFact(eventId: "evt_1", atMs: 1_000, requestedOn: false, outcome: outcome)
        var state = ActionState()
        state.isOn = true
        let face = TileFace(id: "front", label: "Front door", isToggle: true, state: .on, isShownOn: true)
        let annotated = TileNote.annotated(face, Self.lockAction(), state, facts, isNeverHeard: false, nowMs: 3_000)
        #expect(annotated.note == note)
        let html = SwitchboardTileHTML.notes([annotated])
        #expect(html.contains("<li data-action=\"front\"><span class=\"who\">Front door</span>: \(HTMLText.escape(note))</li>"), "\(html)")
        #expect(SwitchboardTileHTML.tile(annotated, isPressable: true).contains("<span class=\"note-mark\">!</span>"))
        // Long after the press, it is no longer said.
        #expect(TileNote.annotated(face, Self.lockAction(), state, facts, isNeverHeard: false, nowMs: 1_000 + TileNote.pressNoteMs + 1).note == nil)
        #expect(SwitchboardTileHTML.notes([face]).isEmpty)
    }

    @Test func aConfirmedPressSaysNothing() {
        var facts = ActionFacts()
        facts.lastPress = PressFact(eventId: "evt_1", atMs: 1_000, requestedOn: true, outcome: .confirmed(afterMs: 300))
        var state = ActionState()
        state.isOn = true
        let face = TileFace(id: "front", label: "Front door", isToggle: true, state: .on, isShownOn: true)
        #expect(TileNote.annotated(face, Self.lockAction(), state, facts, isNeverHeard: false, nowMs: 2_000).note == nil)
    }

    /// The status page: a cover with no `state_words` reads Closed, a jammed
    /// lock Jammed, an offline lock Offline (not Unlocked), each with its reason.
    @Test func theStatusPageDrawsDoorsAndLocksWithTheirOwnWords() throws {
        let yaml = ConfigFixture.withAction("id: garage\nlabel: Garage\nicon: door.garage.closed\nesphome_cover: garage/door")
            + "      - id: front\n        label: Front\n        esphome_lock: hall/front\n"
            + "      - id: back\n        label: Back\n        esphome_lock: yard/back\n"
        var harness = BridgeHarness(config: try #require(ConfigLoader.load(text: yaml, fileName: "bridge.yaml").config))
        harness.connectAndSettle(states: [("garage/cover/door/state", "closed"), ("hall/lock/front/state", "JAMMED"),
                                          ("yard/lock/back/state", "LOCKED"), ("yard/status", "offline")])
        let page = StatusPage.document(harness.bridge.snapshot(serverClockOffsetMs: 0), nowMs: harness.clockMs)
        #expect(page.contains("data-action=\"garage\" data-state=\"Off\" aria-label=\"Garage, Closed\""), "\(page)")
        #expect(page.contains("aria-label=\"Front, Jammed\""), "\(page)")
        #expect(page.contains("aria-label=\"Back, Offline\""), "\(page)")
        #expect(page.contains("<span class=\"who\">Front</span>: the lock reports it is jammed"), "\(page)")
        #expect(page.contains("<span class=\"who\">Back</span>: offline: the device says it cannot be reached"), "\(page)")
        #expect(page.contains("<dt>Bridge believes</dt><dd>closed</dd>"), "\(page)")
    }
}
