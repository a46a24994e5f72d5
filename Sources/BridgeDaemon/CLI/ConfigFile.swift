import BridgeCore

/// Reads and validates a config file from disk.
public enum ConfigFile {
    /// The most a config file may be; a larger one is surely not a config.
    public static let maxBytes = 1024 * 1024

    /// The config, or nil; `report` holds every diagnostic, rendered with the
    /// offending line and a caret, or the reason the file could not be read.
    public struct Loaded: Sendable {
        public var config: BridgeConfig?
        public var report: String
        /// The file's name as diagnostics show it, and its lines.
        public var fileName: String = ""
        public var sourceLines: [String] = []
        /// Any warning among the diagnostics.
        public var hasWarnings = false
    }

    public static func load(path: String) -> Loaded {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path: path, limit: maxBytes) } catch {
            return Loaded(config: nil, report: "\(path): error: cannot read the config file: \(error)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        let result = ConfigLoader.load(text: text, fileName: fileName)
        return Loaded(config: result.config, report: result.rendered(), fileName: fileName,
                      sourceLines: ConfigLoader.splitLines(text), hasWarnings: !result.warnings.isEmpty)
    }
}
