import Foundation
import ShellSupport

/// Polls `condition` every few milliseconds until it holds or `timeoutSeconds` pass.
/// Returns whether it held. The short sleep is inside this helper only; tests
/// synchronise on conditions, never on sleeps.
public func waitUntil(timeoutSeconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}

/// Async variant: polls `condition` every few milliseconds, suspending (not blocking a
/// thread of the shared pool) in between, until it holds or `timeoutSeconds` pass.
/// Prefer it in async tests whose subject runs on Swift concurrency.
public func waitUntil(timeoutSeconds: Double = 10, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

/// A unique temporary directory, removed by `remove()` or, at the latest, when
/// the last reference to it goes (a test never leaves its files in /tmp).
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init(prefix: String = "sbtest") throws {
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    deinit { remove() }
}

/// Thread-safe collection of values a callback produces, for assertions in tests.
public final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let stored = ConditionLock<[Value]>([])

    public init() {}

    public func append(_ value: Value) {
        stored.withLock { $0.append(value) }
    }

    public var values: [Value] { stored.withLock { $0 } }
}
