import Foundation
import Testing
@testable import BridgeCore

/// The `config` fuzz target's dictionary (`fuzz/dict/config.dict`) holds every key
/// the schema knows, so the fuzzer reaches each key's rules without guessing its
/// name byte by byte (`fuzz/run.sh` only warns; this fails).
@Suite("Fuzz dictionary")
struct FuzzDictionaryTests {
    @Test func theConfigDictionaryHoldsEverySchemaKey() throws {
        let dictionary = try String(contentsOf: Self.configDictionaryURL, encoding: .utf8)
        let entries = Set(dictionary.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("key_"), let equals = line.firstIndex(of: "=") else { return nil }
            return String(line[line.index(after: equals)...])
        })
        let missing = Self.schemaKeys.filter { !entries.contains("\"\($0):\"") }
        #expect(missing.isEmpty, "add to fuzz/dict/config.dict, as key_NAME=\"NAME:\": \(missing.joined(separator: " "))")
    }

    /// Every key of every section, action and message, and every preset.
    static var schemaKeys: [String] {
        let sections = ConfigKeys.topLevel + ConfigKeys.aivi + ConfigKeys.mqtt + ConfigKeys.mqttTLS + ConfigKeys.status
            + ConfigKeys.timing + ConfigKeys.widget + ConfigKeys.message + ConfigKeys.action
        return Array(Set(sections + ConfigKeys.presets)).sorted()
    }

    static var configDictionaryURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fuzz/dict/config.dict")
    }
}
