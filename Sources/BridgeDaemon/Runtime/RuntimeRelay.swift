import ShellSupport

/// Hands what the shells report to the runtime once it exists: the shells are
/// built before the runtime (the runtime's ports call them), so their handlers
/// go through this relay. Inputs before `attach` are dropped.
public final class RuntimeRelay: Sendable {
    private let runtime = ConditionLock<BridgeRuntime?>(nil)

    public init() {}

    public func attach(_ target: BridgeRuntime) {
        runtime.withLock { $0 = target }
    }

    public func submit(_ input: RuntimeInput) {
        runtime.withLock { $0 }?.submit(input)
    }

    public func submitMQTTMessage(topic: String, payload: [UInt8]) {
        runtime.withLock { $0 }?.submitMQTTMessage(topic: topic, payload: payload)
    }
}
