import BridgeCore

/// Everything the simulated service and its phones know, changed only under the
/// simulator's lock, with the time passed in.
struct SimState: Sendable {
    let settings: SimSettings
    private let identifiers: EventIdentifier
    private(set) var histories: [String: [PublishRecord]] = [:]
    private var phones: [String: [String: PhoneWidgetView]] = [:]
    private(set) var phoneNames: [String] = []
    private(set) var events: EventLog
    private var limiter: PressRateLimiter
    var faults = FaultPlan()
    private(set) var streams: [Int: StreamControl] = [:]
    private var lastStreamId = 0
    private var lastPublishSequence = 0
    private var lastInjectedSequence = 0

    init(settings: SimSettings, nowMs: Int64) {
        self.settings = settings
        identifiers = EventIdentifier(startMs: nowMs)
        events = EventLog(maxRetained: settings.maxRetainedEvents)
        limiter = PressRateLimiter(rules: settings.rules, nowMs: nowMs)
        for slug in settings.widgetSlugs { histories[slug] = [] }
    }

    private var rules: ServiceRules { settings.rules }

    // MARK: publishing

    /// Answers `PATCH /widget/{slug}` (after the server's own 413 check).
    mutating func patch(slug: String, authorization: String?, body: [UInt8], nowMs: Int64) -> PatchAnswer {
        if let failure = faults.takePatchFailure() {
            return .error(failure.status, "injected failure", retryAfterSeconds: failure.retryAfterSeconds)
        }
        guard authorization == "Token \(settings.token)" else { return .error(401, "invalid token") }
        guard histories[slug] != nil else { return .error(404, "no widget with that slug") }
        let parsed: JSONValue
        do { parsed = try JSONValue.parse(bytes: body) } catch { return .error(400, "body is not JSON: \(error)") }
        switch SwitchboardValidator.content(ofBody: parsed) {
        case .failure(let problem): return .error(400, problem.message)
        case .success(let content):
            publish(slug: slug, content: content, nowMs: nowMs)
            return PatchAnswer(status: 200, body: .object([JSONMember("ok", .bool(true))]))
        }
    }

    private mutating func publish(slug: String, content: JSONValue, nowMs: Int64) {
        lastPublishSequence += 1
        let record = PublishRecord(sequence: lastPublishSequence, content: content, receivedAtMs: nowMs)
        var history = histories[slug] ?? []
        history.append(record)
        if history.count > settings.maxHistoryPerWidget { history.removeFirst() }
        histories[slug] = history
        for phone in phoneNames {
            _ = withView(phone: phone, slug: slug, nowMs: nowMs) { $0.receive(record, atMs: nowMs) }
        }
    }

    // MARK: phones

    /// The view `phone` has of `slug`, brought to `nowMs`; the phone appears on first use.
    private mutating func withView<Result>(phone: String, slug: String, nowMs: Int64,
                                           _ body: (inout PhoneWidgetView) -> Result) -> Result? {
        guard let history = histories[slug], ensurePhone(phone) else { return nil }
        var view = phones[phone]?[slug] ?? PhoneWidgetView(latest: history.last, rules: rules)
        view.advance(toMs: nowMs, history: history)
        let result = body(&view)
        phones[phone]?[slug] = view
        return result
    }

    private mutating func ensurePhone(_ phone: String) -> Bool {
        if phones[phone] != nil { return true }
        guard phoneNames.count < settings.maxPhones else { return false }
        phones[phone] = [:]
        phoneNames.append(phone)
        return true
    }

    /// A press of `action` on `widget` as `phone` at `nowMs`.
    mutating func press(phone: String, widget: String, action: String, nowMs: Int64) -> PressOutcome {
        guard histories[widget] != nil else { return .refused(.unknownWidget) }
        guard ensurePhone(phone) else { return .refused(.tooManyPhones) }
        let sequenceNow = lastPublishSequence
        let prepared = withView(phone: phone, slug: widget, nowMs: nowMs) { view -> PendingPress? in
            guard let tile = view.tile(action) else { return nil }
            return PendingPress(actionId: action, kind: tile.kind,
                                requestedOn: view.requestedOn(for: tile, atMs: nowMs),
                                pressedAtMs: nowMs, publishSequenceAtPress: sequenceNow)
        }
        guard let pending = prepared ?? nil else { return .refused(.unknownAction) }
        if let refusal = limiter.admit(phone: phone, widget: widget, nowMs: nowMs) { return .refused(refusal) }
        _ = withView(phone: phone, slug: widget, nowMs: nowMs) { $0.startWaiting(pending) }
        let event = makeEvent(pending, phone: phone, widget: widget, nowMs: nowMs)
        events.append(event)
        return .accepted(event.id)
    }

    private mutating func makeEvent(_ press: PendingPress, phone: String, widget: String, nowMs: Int64) -> PressEvent {
        let sequence = events.nextSequence()
        return PressEvent(sequence: sequence, id: identifiers.id(sequence: sequence), widget: widget,
                          action: press.actionId, kind: press.kind,
                          value: press.kind == .toggle ? press.requestedOn : nil, phone: phone,
                          createdAtMs: nowMs, expiresAtMs: nowMs + rules.eventLifetimeMs,
                          deliverAtMs: nowMs + faults.eventDelayMs)
    }

    /// What every tile of every widget shows on `phone` at `nowMs`, widgets in settings order.
    mutating func tiles(phone: String, nowMs: Int64) -> [(slug: String, tiles: [TileDisplay])] {
        settings.widgetSlugs.compactMap { slug in
            withView(phone: phone, slug: slug, nowMs: nowMs) { view in (slug, view.displays(atMs: nowMs)) }
        }
    }

    // MARK: event streams

    /// Registers a new stream; nil when the owner's token is missing.
    mutating func openStream(authorization: String?, lastEventId: String?) -> (id: Int, cursor: Int)? {
        guard authorization == "Token \(settings.token)" else { return nil }
        lastStreamId += 1
        streams[lastStreamId] = StreamControl()
        return (lastStreamId, events.cursor(afterEventId: lastEventId))
    }

    mutating func closeStream(_ id: Int) {
        streams[id] = nil
    }

    /// What stream `id` at `cursor` does at `nowMs`.
    mutating func work(forStream id: Int, cursor: Int, nowMs: Int64) -> StreamWork {
        guard var control = streams[id] else { return .close }
        switch control.dropMode {
        case .close?: return .close
        case .halfOpen?: return .stayQuiet
        case nil: break
        }
        var frames = control.injectedFrames
        control.injectedFrames = []
        streams[id] = control
        let ready = events.deliverable(after: cursor, nowMs: nowMs)
        for event in ready.events {
            frames.append(event.sseFrame)
            if faults.takeDuplicate() { frames.append(event.sseFrame) }
        }
        return .send(frames: frames, cursor: ready.cursor)
    }

    /// Makes every open stream fail as `mode` says.
    mutating func dropStreams(_ mode: StreamDropMode) {
        for id in streams.keys { streams[id]?.dropMode = mode }
    }

    /// Queues a well-formed press created `ageMs` ago on every open stream, whatever
    /// the widget's tiles say; returns its id.
    mutating func injectPress(widget: String, action: String, kind: TileKind, value: Bool?,
                              ageMs: Int64, nowMs: Int64) -> String {
        lastInjectedSequence += 1
        let createdAtMs = nowMs - ageMs
        let press = PressEvent(sequence: 0, id: "evt_injected_\(lastInjectedSequence)", widget: widget, action: action,
                               kind: kind, value: value, phone: "late", createdAtMs: createdAtMs,
                               expiresAtMs: createdAtMs + rules.eventLifetimeMs, deliverAtMs: nowMs)
        for id in streams.keys where (streams[id]?.injectedFrames.count ?? 0) < StreamControl.maxPendingFrames {
            streams[id]?.injectedFrames.append(press.sseFrame)
        }
        return press.id
    }

    /// Queues a contract-breaking frame on every open stream.
    mutating func inject(_ kind: InjectedEventKind, nowMs: Int64) {
        lastInjectedSequence += 1
        let frame = kind.frame(sequence: lastInjectedSequence, nowMs: nowMs)
        for id in streams.keys where (streams[id]?.injectedFrames.count ?? 0) < StreamControl.maxPendingFrames {
            streams[id]?.injectedFrames.append(frame)
        }
    }
}
