/// Normalised device identities, so one device announced by two sources is recognised.
enum DeviceKeys {
    /// `mac:AABBCCDDEEFF` and `mac6:DDEEFF` (Tasmota's Home Assistant ids use the
    /// last six digits) from a MAC written with or without separators.
    static func mac(_ text: String) -> Set<String> {
        let digits = String(text.uppercased().filter { $0.isHexDigit })
        guard digits.count == 12 else { return [] }
        return ["mac:" + digits, "mac6:" + digits.suffix(6)]
    }

    /// The keys a Home Assistant `device` block names: `identifiers` (a zigbee2mqtt
    /// IEEE address, a MAC, the last six of a MAC) and `connections` `[["mac", …]]`.
    static func ofHomeAssistantDevice(_ device: JSONValue?) -> Set<String> {
        guard let device else { return [] }
        var keys = Set<String>()
        var identifiers: [String] = []
        switch device["identifiers"] {
        case .string(let text)?: identifiers = [text]
        case .array(let items)?: identifiers = items.compactMap(\.stringValue)
        default: break
        }
        for identifier in identifiers {
            keys.insert("id:" + identifier)
            if let range = identifier.lowercased().firstRange(of: "0x") {
                let hex = identifier.lowercased()[range.upperBound...].prefix(16)
                if hex.count == 16, hex.allSatisfy(\.isHexDigit) { keys.insert("ieee:0x" + hex) }
            }
            keys.formUnion(mac(identifier))
            let upper = identifier.uppercased()
            if upper.count == 6, upper.allSatisfy(\.isHexDigit) { keys.insert("mac6:" + upper) }
        }
        if case .array(let connections)? = device["connections"] {
            for connection in connections {
                guard case .array(let pair) = connection, pair.count == 2, pair[0].stringValue == "mac",
                      let address = pair[1].stringValue else { continue }
                keys.formUnion(mac(address))
            }
        }
        return keys
    }
}
