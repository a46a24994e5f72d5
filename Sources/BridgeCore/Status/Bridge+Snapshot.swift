extension Bridge {
    /// The read-only picture of the bridge the status endpoints render
    /// (the page, the Webhook Widget view, `/metrics`). `serverClockOffsetMs`
    /// is the shell's current estimate (server clock minus board clock). Taken
    /// when a status client asks: it copies no collection (each is shared until
    /// the core next changes it) and renders nothing, but a snapshot kept makes
    /// the core's next change copy what it shares, so none is kept.
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

    /// "token refused by the service (HTTP 401)" while the service refuses the
    /// stream's token, else nil: what STATUS= says after each batch, read
    /// without a snapshot.
    public var tokenRefusedPhrase: String? { facts.connections.tokenRefusedPhrase }
}
