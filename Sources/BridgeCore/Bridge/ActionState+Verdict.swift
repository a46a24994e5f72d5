extension ActionState {
    /// What a message read by one listener changes in the state: the one rule
    /// the bridge and `watch` share.
    mutating func take(_ verdict: MessageVerdict, as role: TopicIndex.Role) {
        switch (role, verdict) {
        case (.state, .on): isOn = true
        case (.state, .off), (.state, .protectiveOff): isOn = false
        case (.availability, .available): isAvailable = true
        case (.availability, .unavailable): isAvailable = false
        case (.availability, .availabilityCleared): isAvailable = nil
        case (.gatewayAvailability, .available): isGatewayAvailable = true
        case (.gatewayAvailability, .unavailable): isGatewayAvailable = false
        case (.gatewayAvailability, .availabilityCleared): isGatewayAvailable = nil
        case (.active, .active(let active)): isActive = active
        default: break
        }
    }
}
