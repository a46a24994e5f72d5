extension Bridge {
    /// Appends a debug line, its text built only when the shell writes debug lines
    /// (`writesDebugLog`): the busiest lines (one per MQTT message heard, one per
    /// PATCH acknowledged) otherwise cost a press the building of text nobody reads.
    func appendDebugLog(_ message: @autoclosure () -> LogMessage, _ effects: inout [BridgeEffect]) {
        guard writesDebugLog else { return }
        effects.append(.log(.debug, message()))
    }
}
