extension ActionState {
    /// What a message read by one listener changes in the state: the one rule
    /// the bridge and `watch` share.
    mutating func take(_ verdict: MessageVerdict, as role: TopicIndex.Role) {
        switch (role, verdict) {
        case (.state, .on), (.state, .off), (.state, .protectiveOff):
            isOn = verdict == .on
            motion = .none
            lastReading = nil
        case (.state, .reading(let reading)):
            take(reading)
            lastReading = verdict
        case (.state, .position(let percent?)):
            take(positionPercent: percent)
            lastReading = percent == 0 || percent == 100 ? nil : verdict   // at an end, open or closed says it all
        case (.state, .position(nil)):
            // Not calibrated, signed or out of range: where it is, nobody knows; not closed.
            isOn = nil
            positionPercent = nil
            lastReading = verdict
        case (.availability, .available): isAvailable = true
        case (.availability, .unavailable): isAvailable = false
        // A cleared (empty) availability is unknown, not available: after
        // `offline` the device stays unreachable until it says it is back, so
        // its state from before the outage is not shown again (issue 38).
        case (.availability, .availabilityCleared): if isAvailable != false { isAvailable = nil }
        case (.gatewayAvailability, .available): isGatewayAvailable = true
        case (.gatewayAvailability, .unavailable): isGatewayAvailable = false
        case (.gatewayAvailability, .availabilityCleared): if isGatewayAvailable != false { isGatewayAvailable = nil }
        case (.active, .active(let active)): isActive = active
        default: break
        }
    }

    private mutating func take(_ reading: DeviceReading) {
        switch reading.openness {
        case .on?: isOn = true
        case .off?: isOn = false
        case .unknown?: isOn = nil
        case nil: break
        }
        if let motion = reading.motion {
            self.motion = motion
            saysMotionInWords = true
        }
    }

    /// A position: 0 is closed, anything above open; a falling one is closing,
    /// a rising one opening (unless the device says its motion in words), an
    /// end (0 or 100) is at rest.
    private mutating func take(positionPercent percent: Int) {
        if !saysMotionInWords, let previous = positionPercent, previous != percent { motion = percent < previous ? .towardOff : .towardOn }
        if percent == 0 || percent == 100 { motion = .none }
        positionPercent = percent
        isOn = percent > 0
    }
}
