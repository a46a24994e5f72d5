/// The parts of the status page: the connections, and per widget its tiles as
/// phones show them with each tile's facts. Every outside text is escaped and
/// bounded here.
enum StatusPageSections {
    static func connections(_ snapshot: BridgeSnapshot, nowMs: Int64) -> String {
        let facts = snapshot.facts.connections
        var rows: [(String, String)] = []
        rows.append(("Broker", connection(snapshot.isMQTTConnected, since: facts.mqttChangedAtMs, reconnects: facts.mqttReconnects, nowMs)))
        var stream = connection(snapshot.isEventStreamConnected, since: facts.eventStreamChangedAtMs,
                                reconnects: facts.eventStreamReconnects, nowMs)
        if let lastEventMs = facts.lastStreamEventAtMs { stream += "; last event " + AgeText.ago(lastEventMs, nowMs: nowMs) }
        rows.append(("Event stream", stream))
        rows.append(("Server clock", offset(snapshot.serverClockOffsetMs)))
        rows.append(("States", snapshot.isSettled ? "settled" : "<span class=\"warn\">waiting for retained states</span>"))
        return "<section class=\"connections\"><h2>Connections</h2>" + list(rows) + "</section>"
    }

    static func widget(_ widget: WidgetConfig, _ snapshot: BridgeSnapshot, nowMs: Int64) -> String {
        let slug = HTMLText.escape(widget.slug)
        var html = "<section class=\"widget-section\" data-slug=\"\(slug)\"><h2>Widget <code>\(slug)</code></h2>"
        let publishing = snapshot.publishing(slug: widget.slug)
        html += "<dl>" + row("Service", service(snapshot.facts.publishing[widget.slug] ?? PublishFacts(), nowMs)) + "</dl>"
        if let marker = snapshot.publishMarker(slug: widget.slug) {
            html += "<p class=\"marker\" data-marker>⚠︎ Differs from what the bridge would publish now: \(HTMLText.escape(marker.words))</p>"
        }
        if let body = publishing.acknowledgedBody {
            // Drawn as phones show it, with the bridge's words: a door's Open/Closed, Offline, why a press did nothing.
            let faces = TileNote.annotated(TileFace.resting(body: body), slug: widget.slug, snapshot, nowMs: nowMs)
            html += SwitchboardTileHTML.widget(faces, size: .medium, isPressable: false) + SwitchboardTileHTML.notes(faces)
        } else {
            html += "<p class=\"marker\">Phones show nothing from this bridge yet: the service has acknowledged no content.</p>"
        }
        html += "<ul class=\"facts\">"
        for action in widget.actions { html += tileFacts(action, slug: widget.slug, snapshot, nowMs: nowMs) }
        return html + "</ul></section>"
    }

    static func tileFacts(_ action: ActionConfig, slug: String, _ snapshot: BridgeSnapshot, nowMs: Int64) -> String {
        let key = ActionKey(slug: slug, actionId: action.id)
        let facts = snapshot.facts.action(key)
        var rows = [("Bridge believes", believes(action, snapshot.states[key] ?? ActionState()))]
        if let message = facts.lastMessage {
            rows.append(("Last set by", "<code>\(HTMLText.excerpt(message.topic))</code> <code>\(HTMLText.escape(message.payloadExcerpt))</code> "
                + AgeText.ago(message.atMs, nowMs: nowMs)))
        }
        if snapshot.isNeverHeard(action) {
            var seen: Set<String> = []
            let topics = action.stateSources.map(\.topic).filter { seen.insert($0).inserted }
                .map { "<code>\(HTMLText.excerpt($0))</code>" }.joined(separator: ", ")
            var text = "<span class=\"warn\">never heard from</span>: nothing on \(topics) since start"
            text += NearMiss.clause(snapshot.nearMisses(of: action)) { HTMLText.excerpt($0) }
            rows.append(("Heard", text))
        }
        if let press = facts.lastPress { rows.append(("Last press", pressText(press, nowMs))) }
        if let warning = facts.lastWarning { rows.append(("Warning", "<span class=\"warn\">\(HTMLText.excerpt(warning, maxScalars: 400))</span>")) }
        let id = HTMLText.escape(action.id)
        return "<li data-action=\"\(id)\"><h3>\(HTMLText.escape(action.label)) <code class=\"note\">\(id)</code></h3>" + list(rows) + "</li>"
    }

    /// "on", "off", "unknown (no state yet)", "unavailable (the device says so)", ...
    static func believes(_ action: ActionConfig, _ state: ActionState) -> String {
        var words: String
        switch action.kind {
        case .toggle:
            words = state.isOn.map { action.device.word(on: $0) } ?? "unknown (no state yet)"
            if action.device != .plainSwitch, let reading = state.lastReading {
                words += ", " + HTMLText.escape(WatchEvent.word(for: reading, device: action.device, positionPercent: state.positionPercent))
            }
        case .button where action.hasHighlight: words = state.isActive ? "active" : "idle"
        case .button: words = "ready (a plain button)"
        }
        if state.isAvailable == false { words = "<span class=\"bad\">unavailable</span> (the device says so); last state " + words }
        if state.isGatewayAvailable == false { words = "<span class=\"bad\">unavailable</span> (its gateway is down); last state " + words }
        if let pending = state.pendingPress {
            words += "; waiting for the device to confirm " + (action.kind == .button ? "it turned active" : action.device.word(on: pending.requestedOn))
            if pending.isTravelling { words += " (within its travel time)" }
        }
        return words
    }

    static func pressText(_ press: PressFact, _ nowMs: Int64) -> String {
        let asked = press.requestedOn.map { "asked " + ($0 ? "on" : "off") + ", " } ?? ""
        return AgeText.ago(press.atMs, nowMs: nowMs) + ": " + asked + HTMLText.escape(press.outcome.words)
            + " <code class=\"note\">" + HTMLText.escape(press.eventId) + "</code>"
    }

    static func service(_ facts: PublishFacts, _ nowMs: Int64) -> String {
        var parts: [String] = []
        if let acknowledgedMs = facts.lastAcknowledgedAtMs {
            parts.append("last update acknowledged " + AgeText.ago(acknowledgedMs, nowMs: nowMs))
        } else {
            parts.append("no update acknowledged yet")
        }
        if let error = facts.lastError {
            var text = "<span class=\"bad\">last error: \(HTMLText.excerpt(error, maxScalars: 400))</span>"
            if let finishedMs = facts.lastFinishedAtMs { text += " " + AgeText.ago(finishedMs, nowMs: nowMs) }
            if let retryAfterMs = facts.retryAfterMs { text += "; Retry-After " + AgeText.duration(ms: retryAfterMs) }
            parts.append(text)
        }
        return parts.joined(separator: "; ")
    }

    private static func connection(_ isUp: Bool, since: Int64?, reconnects: Int, _ nowMs: Int64) -> String {
        var text = isUp ? "<span class=\"good\">connected</span>" : "<span class=\"bad\">disconnected</span>"
        if let since { text += " for " + AgeText.duration(ms: nowMs.subtractingSaturating(since)) }
        return text + "; \(reconnects) reconnect" + (reconnects == 1 ? "" : "s")
    }

    private static func offset(_ offsetMs: Int64) -> String {
        if offsetMs == 0 { return "offset 0 ms (or no Date header yet)" }
        return "\(offsetMs > 0 ? "ahead of" : "behind") the board by " + AgeText.duration(ms: offsetMs == Int64.min ? Int64.max : abs(offsetMs))
    }

    private static func row(_ term: String, _ value: String) -> String { "<dt>\(term)</dt><dd>\(value)</dd>" }

    private static func list(_ rows: [(String, String)]) -> String {
        "<dl>" + rows.map { row($0.0, $0.1) }.joined() + "</dl>"
    }
}
