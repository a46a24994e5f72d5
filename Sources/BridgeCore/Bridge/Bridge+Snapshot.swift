extension Bridge {
    /// The read-only picture of the bridge the status endpoints render
    /// (the page, the Webhook Widget view, `/metrics`). `serverClockOffsetMs`
    /// is the shell's current estimate (server clock minus board clock).
    public func snapshot(serverClockOffsetMs: Int64) -> BridgeSnapshot {
        var snapshot = BridgeSnapshot(
            config: config, states: states, isMQTTConnected: isMQTTConnected,
            isEventStreamConnected: isEventStreamConnected, isSettled: isSettled, serverClockOffsetMs: serverClockOffsetMs)
        snapshot.facts = facts
        snapshot.heardTopics = silence.heardTopics
        snapshot.nearMisses = silence.nearMisses
        snapshot.templates = templates
        snapshot.publishing = publishers.mapValues { publisher in
            WidgetPublishState(
                acknowledgedBody: publisher.lastAcknowledgedBody, isInFlight: publisher.inFlight != nil,
                isRetryScheduled: publisher.isRetryScheduled, isInPublishInterval: publisher.isInPublishInterval,
                refusedStatus: publisher.loggedPermanentStatus)
        }
        return snapshot
    }
}
