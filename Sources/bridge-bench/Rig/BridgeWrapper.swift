/// Something the bridge is started inside of, as the same process: a CPU budget
/// (`CPUCgroup`), an instruction counter (`CallgrindCounter`).
protocol BridgeWrapper: Sendable {
    /// The command that runs `executable` with `arguments` inside the wrapper.
    func wrapped(executable: String, arguments: [String]) -> (executable: String, arguments: [String])
}
