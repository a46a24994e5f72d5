import Foundation
import MQTTShell
import ShellSupport
import Testing
import TestSupport

/// A source with one pipe: records what the loop told it.
private final class PipeSource: LoopSource, @unchecked Sendable {
    let readEnd: Int32
    let writeEnd: Int32
    var deadlineMs: Int64?
    /// False: the source does not want its bytes now (a server busy with an answer).
    var wantsRead = true
    var services: [[LoopReadiness]] = []

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func loopWants(nowMs: Int64) -> LoopWants {
        LoopWants(interests: [LoopInterest(descriptor: readEnd, wantsWrite: false, wantsRead: wantsRead)], deadlineMs: deadlineMs)
    }

    func loopService(ready: [LoopReadiness], nowMs: Int64) {
        services.append(ready)
        var byte: UInt8 = 0
        if ready.contains(where: \.isReadable) { _ = read(readEnd, &byte, 1) }
        if let deadlineMs, nowMs >= deadlineMs { self.deadlineMs = nil }
    }
}

@Suite("EventLoop: one poll loop for the shells")
struct EventLoopTests {
    @Test func aWakeFromAnotherThreadEndsAnUnboundedWait() throws {
        let loop = try EventLoop()
        let woken = DispatchSemaphore(value: 0)
        let thread = Thread {
            loop.turn(timeoutMs: -1)
            woken.signal()
        }
        thread.start()
        // Until the loop waits, a wake is kept (the pipe), so there is no race to lose.
        loop.wake()
        #expect(woken.wait(timeout: .now() + 10) == .success)
    }

    @Test func aReadyDescriptorAndADeadlineReachTheirSource() throws {
        let loop = try EventLoop()
        let source = try PipeSource()
        loop.add(source)
        var byte: UInt8 = 7
        #expect(write(source.writeEnd, &byte, 1) == 1)
        loop.turn(timeoutMs: 10_000)
        #expect(source.services == [[LoopReadiness(descriptor: source.readEnd, isReadable: true, isWritable: false)]])

        source.deadlineMs = MonotonicClock.nowMs() + 20
        loop.turn(timeoutMs: 10_000)
        #expect(source.services.count == 2)
        #expect(source.services.last == [])
        #expect(source.deadlineMs == nil)
    }

    @Test func bytesASourceDoesNotWantNowDoNotEndTheWait() throws {
        let loop = try EventLoop()
        let source = try PipeSource()
        source.wantsRead = false
        loop.add(source)
        var byte: UInt8 = 7
        #expect(write(source.writeEnd, &byte, 1) == 1)
        loop.turn(timeoutMs: 30)
        #expect(source.services.isEmpty)
        source.wantsRead = true
        loop.turn(timeoutMs: 10_000)
        #expect(source.services == [[LoopReadiness(descriptor: source.readEnd, isReadable: true, isWritable: false)]])
    }

    @Test func theWaitIsTheEarliestOfTheBoundAndTheDeadlines() {
        #expect(EventLoop.waitMs(timeoutMs: -1, deadlines: [], nowMs: 100) == -1)
        #expect(EventLoop.waitMs(timeoutMs: 500, deadlines: [400, 250], nowMs: 100) == 150)
        #expect(EventLoop.waitMs(timeoutMs: -1, deadlines: [50], nowMs: 100) == 0)
        #expect(EventLoop.waitMs(timeoutMs: 30, deadlines: [Int64.max], nowMs: Int64.min) == 30)
    }

    /// The daemon's way: the client on the caller's loop, every event on that loop's
    /// thread, publishes written from it with no other thread, a clean stop on it.
    @Test func anMQTTClientOnTheCallersLoopNeedsNoThreadOfItsOwn() throws {
        let broker = try MosquittoBroker()
        let directory = broker.directory
        try MosquittoCLI.publish(port: broker.port, topic: "dev/kept/state", payload: "ON", retain: true, directory: directory)
        let subscriber = try MosquittoSubscriber(port: broker.port, topics: ["cmd/#"], directory: directory)
        let driver = try LoopThread()
        defer { driver.stop() }
        let events = Recorder<MQTTEvent>()
        let offLoopEvents = Recorder<MQTTEvent>()
        var settings = MQTTSettings(host: "127.0.0.1", port: broker.port, clientId: "loop-\(UUID().uuidString)")
        settings.status = MQTTSettings.Status(topic: "bridge/status")
        let client = MQTTClient(settings: settings) { event in
            events.append(event)
            if !driver.loop.isOnLoopThread { offLoopEvents.append(event) }
        }
        try driver.perform {
            try client.setSubscriptions(["dev/+/state"])
            try client.start(on: driver.loop)
        }
        #expect(waitUntil { events.values.contains(.connected) })
        #expect(waitUntil { events.values.contains { if case .message(let m) = $0 { m.topic == "dev/kept/state" } else { false } } })
        try driver.perform {
            try client.publish(topic: "cmd/lamp", payload: Array("toggle".utf8), qos: .atLeastOnce, retain: false)
        }
        #expect(waitUntil { subscriber.payloads(on: "cmd/lamp") == ["toggle"] })
        try driver.perform { client.stop() }
        #expect(try MosquittoCLI.retainedPayload(port: broker.port, topic: "bridge/status", directory: directory) == "offline")
        #expect(offLoopEvents.values.isEmpty)
    }

    /// Tests and bench's devices: a client on a `LoopThread` of its own takes publishes
    /// from other threads, several at once, while its loop thread reads and writes:
    /// each is handed to the loop's thread (the client itself is loop thread only).
    /// Its own messages come back to it: every one, in order per topic.
    @Test func aClientOnItsOwnLoopTakesPublishesFromSeveralThreadsAtOnce() throws {
        let broker = try MosquittoBroker()
        let recorded = try RecordedMQTTClient(port: broker.port, subscriptions: ["load/#"])
        try recorded.client.start()
        defer { recorded.client.stop() }
        #expect(waitUntil { recorded.connectedCount == 1 })
        let threads = 4
        let perThread = 100
        let failures = Recorder<String>()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                do {
                    try recorded.client.publish(topic: "load/\(thread)", payload: Array("\(index)".utf8), qos: .atLeastOnce, retain: false)
                } catch {
                    failures.append("\(error)")
                }
            }
        }
        #expect(failures.values.isEmpty)
        let expected = (0..<perThread).map { "\($0)" }
        #expect(waitUntil(timeoutSeconds: 20) { (0..<threads).allSatisfy { recorded.payloads(on: "load/\($0)").count >= perThread } })
        for thread in 0..<threads { #expect(recorded.payloads(on: "load/\(thread)") == expected) }
    }
}
