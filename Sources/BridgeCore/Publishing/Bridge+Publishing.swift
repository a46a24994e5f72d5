extension Bridge {
    /// Records that a press on this widget must be answered by a publish, and
    /// publishes if nothing stands in the way.
    mutating func oweAnswer(_ slug: String, _ effects: inout [BridgeEffect]) {
        answerGeneration += 1
        publishers[slug]?.answerOwedGeneration = answerGeneration
        publishIfNeeded(slug, &effects)
    }

    /// Marks the widget for a publish once the input being handled is fully
    /// applied (`publishChanges`): nothing is rendered in the middle of an input,
    /// so one MQTT message moving two highlights, or a light and its scene, is
    /// never published half-applied.
    mutating func publishIfNeeded(_ slug: String, _ effects: inout [BridgeEffect]) {
        widgetsToPublish.insert(slug)
    }

    /// The end of every input: scenes' highlights follow their tiles, scene
    /// presses whose wait is over are answered, then each marked widget publishes.
    mutating func publishChanges(_ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        deriveSceneHighlights(input, &effects)
        // One marked widget (most inputs): no array of the sorted set.
        if widgetsToPublish.count == 1, let slug = widgetsToPublish.first {
            widgetsToPublish.removeAll(keepingCapacity: true)
            return startPatchIfNeeded(slug, &effects)
        }
        let slugs = widgetsToPublish.sorted()
        widgetsToPublish.removeAll(keepingCapacity: true)   // (at most one entry per widget)
        for slug in slugs { startPatchIfNeeded(slug, &effects) }
    }

    /// Starts a PATCH of the latest content when the widget is free to publish and
    /// the content differs from what the service holds (or a press is owed one).
    /// A state-only change inside the publish interval waits: the interval's
    /// timer calls this again when it ends, and the latest content goes then.
    /// Before the states settle only an answer owed to a press goes (the broker down
    /// since start: the service is reachable, the press must end in an answer).
    private mutating func startPatchIfNeeded(_ slug: String, _ effects: inout [BridgeEffect]) {
        // The template is looked up last: a widget with nothing new (a PATCH's own answer) hashes its slug once.
        guard var publisher = publishers[slug], publisher.isFreeToSend,
              isSettled || publisher.answerOwedGeneration != nil, !isAwaitingHighlight(slug),
              !publisher.hasNothingNew(statesVersion: states.version), let template = templates[slug] else { return }
        if publisher.isHeldByInterval {
            holdBackForInterval(slug, template, &publisher, &effects)
            publishers[slug] = publisher
            return
        }
        let body = currentBody(template, &publisher)
        guard publisher.shouldSend(body) else {
            publisher.acknowledgedStatesVersion = states.version
            publishers[slug] = publisher
            return
        }
        let answersPress = publisher.answerOwedGeneration != nil
        let request = PatchRequest(slug: slug, body: body, requestId: nextRequestId, answersPress: answersPress)
        nextRequestId += 1
        publisher.inFlight = WidgetPublisher.InFlight(
            requestId: request.requestId, body: body, coversAnswerGeneration: answerGeneration, statesVersion: states.version)
        effects.append(.sendPatch(request))
        startPublishInterval(slug, &publisher, &effects)
        publishers[slug] = publisher
    }

    /// Inside the publish interval: when the content differs from what the
    /// service holds, the shell is asked (once an interval) to wake at its end,
    /// when the latest content goes. A flapping device renders at most once an
    /// interval; a PATCH's own acknowledgement, nothing changed since, renders nothing.
    private mutating func holdBackForInterval(_ slug: String, _ template: WidgetTemplate,
                                              _ publisher: inout WidgetPublisher, _ effects: inout [BridgeEffect]) {
        guard !publisher.isIntervalWakeRequested else { return }
        guard currentBody(template, &publisher) != publisher.lastAcknowledgedBody else {
            publisher.acknowledgedStatesVersion = states.version
            return
        }
        publisher.isIntervalWakeRequested = true
        effects.append(.wakeForTimer(.publishInterval(slug: slug)))
    }

    /// A PATCH just started: the next state-only one waits a whole interval
    /// (restarting the timer when an answer went out inside the interval).
    func startPublishInterval(_ slug: String, _ publisher: inout WidgetPublisher, _ effects: inout [BridgeEffect]) {
        let intervalMs = publisher.minPublishIntervalMs
        guard intervalMs > 0 else { return }
        publisher.isInPublishInterval = true
        publisher.isIntervalWakeRequested = false
        effects.append(.startTimer(.publishInterval(slug: slug), afterMs: intervalMs))
    }

    mutating func patchCompleted(_ slug: String, _ requestId: UInt64, _ outcome: PatchOutcome, _ effects: inout [BridgeEffect]) {
        guard var publisher = publishers[slug], let sent = publisher.inFlight, sent.requestId == requestId else {
            appendDebugLog("ignoring the answer to PATCH #\(requestId) of \(slug): no longer current", &effects)
            return
        }
        publisher.inFlight = nil
        let verdict = PatchVerdict(outcome)
        var status: Int?
        var serviceReason: String?
        if case .status(let code, _, let reason) = outcome {
            status = code
            serviceReason = reason
        }
        effects.append(.observe(.patchFinished(slug: slug, status: status)))
        switch verdict {
        case .success:
            publisher.acknowledge(sent)
            appendDebugLog("published \(slug) (PATCH #\(requestId), HTTP \(status ?? 0))", &effects)
        case .rateLimited(let retryAfterMs):
            let delayMs = retryAfterMs ?? nextBackoffMs(&publisher)
            effects.append(.log(.warning, "publish of \(slug) rate limited; retrying in \(delayMs) ms"))
            scheduleRetry(slug, &publisher, afterMs: delayMs, &effects)
        case .permanent(let status):
            if publisher.loggedPermanentStatus != status {
                publisher.loggedPermanentStatus = status
                let said = serviceReason.map { "the service said \"\($0)\"; " } ?? ""
                effects.append(.log(.error, "publish of \(slug) refused with HTTP \(status): \(said)\(PatchVerdict.hint(forStatus: status))"))
            }
            scheduleRetry(slug, &publisher, afterMs: config.timing.permanentErrorRetryMs, &effects)
        case .transient(let reason, let retryAfterMs):
            let backoffMs = nextBackoffMs(&publisher)
            let delayMs = retryAfterMs ?? backoffMs
            effects.append(.log(.warning, "publish of \(slug) failed (\(reason)); retrying in \(delayMs) ms"))
            scheduleRetry(slug, &publisher, afterMs: delayMs, &effects)
        }
        publishers[slug] = publisher
        publishIfNeeded(slug, &effects)
    }

    /// The event stream just accepted the same token a PATCH was refused for
    /// (401/403): the refusal is over (a fixed token, a service hiccup), so the
    /// widgets waiting out the slow permanent-error retry publish at once.
    mutating func retryWidgetsRefusedForTheToken(_ effects: inout [BridgeEffect]) {
        for slug in publishers.keys.sorted() {
            guard var publisher = publishers[slug], publisher.isRetryScheduled,
                  let status = publisher.loggedPermanentStatus, status == 401 || status == 403 else { continue }
            publisher.isRetryScheduled = false
            publishers[slug] = publisher
            effects.append(.cancelTimer(.publishRetry(slug: slug)))
            effects.append(.log(.info, "the event stream accepted the token: retrying the publish of \(slug) now"))
            publishIfNeeded(slug, &effects)
        }
    }

    /// The one `Backoff` (half the doubled delay fixed, half random from the seeded generator).
    mutating func nextBackoffMs(_ publisher: inout WidgetPublisher) -> Int64 {
        publisher.consecutiveFailures += 1
        let backoff = Backoff(initialMs: config.timing.publishRetryInitialMs, capMs: config.timing.publishRetryCapMs)
        return backoff.delayMs(retry: min(publisher.consecutiveFailures - 1, 64), using: &random)
    }

    func scheduleRetry(_ slug: String, _ publisher: inout WidgetPublisher, afterMs delayMs: Int64, _ effects: inout [BridgeEffect]) {
        publisher.isRetryScheduled = true
        effects.append(.startTimer(.publishRetry(slug: slug), afterMs: delayMs))
    }

    mutating func timerFired(_ timer: BridgeTimer, _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        switch timer {
        case .settle:
            if !isSettled { settle(&effects) }
        case .publishRetry(let slug):
            publishers[slug]?.isRetryScheduled = false
            publishIfNeeded(slug, &effects)
        case .publishInterval(let slug):
            publishers[slug]?.endPublishInterval()
            publishIfNeeded(slug, &effects)
        case .pulseHold(let door):
            endPulseHold(door, &effects)
        case .confirm(let key):
            confirmTimedOut(key, input, &effects)
        case .silenceCheck:
            checkSilentActions(&effects)
        case .nearMissProbe:
            finishNearMissProbe(&effects)
        case .eventStreamOpenWait:
            openEventStreamWithoutMQTT(&effects)
        }
    }
}
