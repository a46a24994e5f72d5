import Glibc
import ShellSupport
import Testing
import TestSupport

@testable import BridgeDaemon

@Suite struct SystemdNotifierTests {
    @Test(arguments: [
        ("/run/systemd/notify", NotifySocketAddress.path("/run/systemd/notify")),
        ("@switchboard/notify", NotifySocketAddress.abstract("switchboard/notify")),
    ])
    func parsesNotifySocketAddresses(value: String, expected: NotifySocketAddress) throws {
        #expect(try NotifySocketAddress(parsing: value) == expected)
    }

    @Test(arguments: ["vsock:2:1234", "relative/path", "@", ""])
    func rejectsUnsupportedAddresses(value: String) {
        #expect(throws: SystemdNotifyError.unsupportedSocketAddress(value)) {
            try NotifySocketAddress(parsing: value)
        }
    }

    @Test func rejectsPathsLongerThanSunPath() {
        let longPath = "/" + String(repeating: "x", count: 200)
        #expect(throws: SystemdNotifyError.socketAddressTooLong(byteCount: 202, limit: 108)) {
            try NotifySocketAddress(parsing: longPath)
        }
    }

    @Test func doesNothingWithoutNotifySocket() throws {
        let notifier = try SystemdNotifier(environment: [:])
        #expect(!notifier.isActive)
        #expect(notifier.watchdogIntervalUs == nil)
        try notifier.ready()
        try notifier.status("idle")
        try notifier.watchdog()
        try notifier.stopping()
    }

    @Test func sendsEachMessageAsOneDatagramToAPathSocket() throws {
        let directory = try SystemdTestDirectory()
        defer { directory.remove() }
        let socketPath = directory.path + "/notify.sock"
        let receiver = try NotifyDatagramReceiver(address: .path(socketPath))
        let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": socketPath])
        #expect(notifier.isActive)

        try notifier.ready()
        try notifier.status("mqtt connected, stream connected, 4 actions")
        try notifier.reloading(monotonicUs: 123_456_789)
        try notifier.watchdog()
        try notifier.stopping()

        #expect(try receiver.receive() == "READY=1")
        #expect(try receiver.receive() == "STATUS=mqtt connected, stream connected, 4 actions")
        #expect(try receiver.receive() == "RELOADING=1\nMONOTONIC_USEC=123456789")
        #expect(try receiver.receive() == "WATCHDOG=1")
        #expect(try receiver.receive() == "STOPPING=1")
        #expect(receiver.isEmpty())
    }

    @Test func sendsToAnAbstractSocket() throws {
        let name = "switchboard-ops-test-\(getpid())-\(UInt64(MonotonicClock.nowUs()))"
        let receiver = try NotifyDatagramReceiver(address: .abstract(name))
        let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + name])

        try notifier.ready()

        #expect(try receiver.receive() == "READY=1")
    }

    @Test func statusKeepsToOneLineAndReloadingCarriesTheMonotonicClock() throws {
        let directory = try SystemdTestDirectory()
        defer { directory.remove() }
        let socketPath = directory.path + "/notify.sock"
        let receiver = try NotifyDatagramReceiver(address: .path(socketPath))
        let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": socketPath])
        let beforeUs = UInt64(MonotonicClock.nowUs())

        try notifier.status("line one\nREADY=1")
        try notifier.reloading()

        #expect(try receiver.receive() == "STATUS=line one READY=1")
        let reloading = try receiver.receive().split(separator: "\n")
        #expect(reloading.first == "RELOADING=1")
        let timestamp = reloading.last.flatMap { UInt64($0.dropFirst("MONOTONIC_USEC=".count)) }
        #expect(reloading.count == 2 && reloading.last?.hasPrefix("MONOTONIC_USEC=") == true)
        #expect((timestamp ?? 0) >= beforeUs)
    }

    @Test func reportsAMissingSocketAsAnError() throws {
        let directory = try SystemdTestDirectory()
        defer { directory.remove() }
        let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": directory.path + "/absent.sock"])

        #expect(throws: SystemdNotifyError.sendFailed(errno: ENOENT)) { try notifier.ready() }
    }

    @Test func rejectsAVsockNotifySocketAtCreation() {
        #expect(throws: SystemdNotifyError.self) {
            try SystemdNotifier(environment: ["NOTIFY_SOCKET": "vsock:2:9"])
        }
    }

    struct WatchdogCase: Sendable, CustomTestStringConvertible {
        let environment: [String: String]
        let expectedIntervalUs: UInt64?
        var testDescription: String { "\(environment) -> \(expectedIntervalUs.map(String.init) ?? "off")" }
    }

    @Test(arguments: [
        WatchdogCase(environment: ["WATCHDOG_USEC": "30000000"], expectedIntervalUs: 30_000_000),
        WatchdogCase(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "4242"], expectedIntervalUs: 30_000_000),
        WatchdogCase(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"], expectedIntervalUs: nil),
        WatchdogCase(environment: ["WATCHDOG_USEC": "0"], expectedIntervalUs: nil),
        WatchdogCase(environment: ["WATCHDOG_USEC": "soon"], expectedIntervalUs: nil),
        WatchdogCase(environment: [:], expectedIntervalUs: nil),
    ])
    func readsTheWatchdogInterval(testCase: WatchdogCase) throws {
        let notifier = try SystemdNotifier(environment: testCase.environment, processID: 4242)
        #expect(notifier.watchdogIntervalUs == testCase.expectedIntervalUs)
        #expect(notifier.watchdogPetIntervalUs == testCase.expectedIntervalUs.map { $0 / 2 })
    }
}
