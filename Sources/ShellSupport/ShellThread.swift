import Glibc

/// A joinable POSIX thread running one closure (FoundationEssentials has no `Thread`).
public final class ShellThread: @unchecked Sendable {
    private var handle = pthread_t()
    private let body: @Sendable () -> Void

    /// Starts a thread running `body`; throws if the system refuses a new thread.
    public init(_ body: @escaping @Sendable () -> Void) throws(ShellThreadError) {
        self.body = body
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(&handle, nil, { rawContext in
            guard let rawContext else { return nil }
            let thread = Unmanaged<ShellThread>.fromOpaque(rawContext).takeRetainedValue()
            thread.body()
            return nil
        }, context)
        if result != 0 {
            Unmanaged<ShellThread>.fromOpaque(context).release()
            throw ShellThreadError(errorNumber: result)
        }
    }

    /// Lets the thread end on its own, its resources freed then (never join it after).
    public func detach() {
        pthread_detach(handle)
    }

    /// Waits for the thread to finish. Call once, never from the thread itself.
    public func join() {
        pthread_join(handle, nil)
    }
}

/// The system refused to start a thread.
public struct ShellThreadError: Error, CustomStringConvertible {
    public let errorNumber: Int32
    public var description: String { "cannot start a thread (error \(errorNumber))" }
}
