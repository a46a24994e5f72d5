extension Bridge {
    /// The read-only picture of the bridge the status endpoints render
    /// (the page, the Webhook Widget view, `/metrics`). `serverClockOffsetMs`
    /// is the shell's current estimate (server clock minus board clock). Taken
    /// after every batch: it copies no collection (each is shared until the
    /// core next changes it) and renders nothing.
    public func snapshot(serverClockOffsetMs: Int64) -> BridgeSnapshot {
        var snapshot = BridgeSnapshot(
            config: config, states: states, isMQTTConnected: isMQTTConnected,
            isEventStreamConnected: isEventStreamConnected, isSettled: isSettled, serverClockOffsetMs: serverClockOffsetMs)
        snapshot.facts = facts
        snapshot.heardTopics = silence.heardTopics
        snapshot.nearMisses = silence.nearMisses
        snapshot.templates = templates
        snapshot.publishers = publishers
        return snapshot
    }
}
