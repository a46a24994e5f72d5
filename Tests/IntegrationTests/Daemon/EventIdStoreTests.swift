import BridgeCore
@testable import BridgeDaemon
import Foundation
import Testing

@Suite("Persisted event ids of actions not safe to repeat")
struct EventIdStoreTests {
    func directory() throws -> String {
        let path = NSTemporaryDirectory() + "sb-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func savesAndLoadsDurably() throws {
        let store = EventIdStore(directory: try directory())
        let events = [RememberedEvent(id: "evt_a", expiresAtMs: 10), RememberedEvent(id: "evt_\"b\"", expiresAtMs: 20)]
        try store.save(events)
        let loaded = store.load()
        #expect(loaded.events == events)
        #expect(loaded.problem == nil)
        #expect(!FileManager.default.fileExists(atPath: store.path + ".tmp"))
    }

    @Test func aMissingFileIsAnEmptyMemory() throws {
        let loaded = EventIdStore(directory: try directory()).load()
        #expect(loaded.events.isEmpty)
        #expect(loaded.problem == nil)
    }

    @Test(arguments: ["", "{", "{\"version\":2,\"events\":[]}", "{\"version\":1,\"events\":[{\"id\":3}]}", "\u{0}\u{1}garbage"])
    func aDamagedFileIsSetAsideAndReported(content: String) throws {
        let store = EventIdStore(directory: try directory())
        try content.write(toFile: store.path, atomically: true, encoding: .utf8)
        let loaded = store.load()
        #expect(loaded.events.isEmpty)
        #expect(loaded.problem?.contains("damaged") == true)
        #expect(FileManager.default.fileExists(atPath: store.path + ".damaged"))
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test func anUnreadableFileIsReportedNotSilentlyEmpty() throws {
        let store = EventIdStore(directory: try directory())
        try FileManager.default.createDirectory(atPath: store.path, withIntermediateDirectories: false)
        let loaded = store.load()
        #expect(loaded.events.isEmpty)
        #expect(loaded.problem?.contains("cannot read") == true)
    }

    @Test func aWriteIntoAMissingDirectoryFailsWithTheReason() {
        let store = EventIdStore(directory: "/nonexistent-\(UUID().uuidString)")
        #expect(throws: FileError.self) { try store.save([RememberedEvent(id: "x", expiresAtMs: 1)]) }
    }
}

@Suite("Small daemon pieces")
struct DaemonPiecesTests {
    @Test(arguments: [
        ("Sun, 29 Nov 2026 21:00:00 GMT", Int64(1_795_986_000_000)),
        ("Thu, 01 Jan 1970 00:00:00 GMT", Int64(0)),
        ("Tue, 29 Feb 2028 23:59:59 GMT", Int64(1_835_481_599_000)),
    ])
    func readsHTTPDates(header: String, expectedMs: Int64) {
        #expect(HTTPDate.milliseconds(from: header) == expectedMs)
    }

    @Test(arguments: ["", "Sun, 29 Nov 2026 21:00:00", "Sun, 32 Nov 2026 21:00:00 GMT", "Sun, 29 Foo 2026 21:00:00 GMT"])
    func refusesBadHTTPDates(header: String) {
        #expect(HTTPDate.milliseconds(from: header) == nil)
    }

    @Test func theServerOffsetIsTheMiddleOfTheDateSecond() {
        let offset = HTTPDate.serverClockOffsetMs(dateHeader: "Thu, 01 Jan 1970 00:10:00 GMT", receivedAtMs: 0)
        #expect(offset == 600_500)
    }

    @Test(arguments: [
        ("127.0.0.1:8787", "127.0.0.1", 8787, true), ("[::1]:9000", "::1", 9000, true), ("0.0.0.0:1", "0.0.0.0", 1, false),
        ("localhost:8787", "127.0.0.1", 8787, true), ("[::]:80", "::", 80, false), ("192.168.1.10:8787", "192.168.1.10", 8787, false),
        ("[::ffff:127.0.0.1]:8787", "::ffff:127.0.0.1", 8787, true), ("[fe80::1:2]:8787", "fe80::1:2", 8787, false),
        ("127.1.2.3:8787", "127.1.2.3", 8787, true),
    ])
    func parsesListenAddresses(listen: String, host: String, port: Int, isLoopback: Bool) {
        let parsed = ListenAddress.parse(listen)
        #expect(parsed == ListenAddress(host: host, port: port, isLoopback: isLoopback))
    }

    @Test(arguments: ["8787", ":8787", "host:", "host:99999", "myhost:8787", "127.0.0.1:0", "127.0.0.01:80", "256.0.0.1:80",
                      "::1:8787", "[:::]:80", "[1:2:3:4:5:6:7:8:9]:80", "[12345::]:80", "127.0.0.1:+80", "[::1]:8x"])
    func refusesBadListenAddresses(listen: String) {
        #expect(ListenAddress.parse(listen) == nil)
    }

    @Test func joinsURLsWithoutDoubleSlashes() {
        #expect(AiviLink.join("https://api.getaivi.app/", "/widget/x") == "https://api.getaivi.app/widget/x")
        #expect(AiviLink.join("https://api.getaivi.app", "events") == "https://api.getaivi.app/events")
    }

    @Test(arguments: [
        ("--config /a run", false), ("check -c /a", true), ("run --config=/a --log-level debug", true), ("check --bogus", false), ("fly", false),
    ])
    func parsesCommandLines(line: String, valid: Bool) {
        let parsed = try? CommandLineArguments.parse(line.split(separator: " ").map(String.init))
        #expect((parsed != nil) == valid)
    }
}
