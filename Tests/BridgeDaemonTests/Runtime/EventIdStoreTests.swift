import BridgeCore
@testable import BridgeDaemon
import Foundation
import Testing
import TestSupport

@Suite("Persisted event ids of actions not safe to repeat")
final class EventIdStoreTests {
    /// The directories this test made, removed with it.
    private var directories: [TemporaryDirectory] = []

    func directory() throws -> String {
        let made = try TemporaryDirectory(prefix: "sb-store")
        directories.append(made)
        return made.path
    }

    func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func savesAndLoadsDurably() throws {
        let store = EventIdStore(directory: try directory())
        let events = [RememberedEvent(id: "evt_a", expiresAtMs: 10), RememberedEvent(id: "evt_\"b\"", expiresAtMs: 20)]
        for event in events { try store.record(event) }
        let loaded = EventIdStore(directory: store.directory).load()
        #expect(loaded.events == events)
        #expect(loaded.problem == nil)
        #expect(!FileManager.default.fileExists(atPath: store.path + ".tmp"))
    }

    @Test func aMissingFileIsAnEmptyMemory() throws {
        let loaded = EventIdStore(directory: try directory()).load()
        #expect(loaded.events.isEmpty)
        #expect(loaded.problem == nil)
    }

    /// Issue 12: one unsafe press appends one line; the whole file is not rewritten.
    @Test func eachNewIdIsAppendedAndForgottenOnesAreCompactedAway() throws {
        let store = EventIdStore(directory: try directory())
        _ = store.load()
        var live: [RememberedEvent] = []
        for index in 0..<50 {
            live.append(RememberedEvent(id: "evt_\(index)", expiresAtMs: Int64(index)))
            try store.record(live[live.count - 1])
        }
        #expect(lines(store.path).count == 50, "appended, one line per id")
        let inode = try FileManager.default.attributesOfItem(atPath: store.path)[.systemFileNumber] as? Int
        // Forgetting ids adds no line; once the dead lines outnumber the live ones
        // by the slack, the log is rewritten with the live ones only.
        for _ in 0..<(50 - 1) {
            try store.forget([live.removeFirst().id])
        }
        #expect(try FileManager.default.attributesOfItem(atPath: store.path)[.systemFileNumber] as? Int == inode,
                "no rewrite below the slack")
        for index in 50..<400 {
            live.append(RememberedEvent(id: "evt_\(index)", expiresAtMs: Int64(index)))
            try store.record(live[live.count - 1])
            try store.forget([live.removeFirst().id])
        }
        #expect(lines(store.path).count <= live.count * 2 + 256 + 1)
        // Forgotten ids not yet compacted away come back too; the core forgets them again.
        #expect(Set(live).isSubset(of: Set(EventIdStore(directory: store.directory).load().events)))
    }

    @Test func aDamagedLineIsSkippedAndReportedTheOthersKept() throws {
        let store = EventIdStore(directory: try directory())
        let content = "{\"id\":\"a\",\"expires_at_ms\":5}\n\u{0}garbage\n{\"id\":\"b\",\"expires_at_ms\":6}\n"
        try content.write(toFile: store.path, atomically: true, encoding: .utf8)
        let loaded = store.load()
        #expect(loaded.events.map(\.id) == ["a", "b"])
        #expect(loaded.problem?.contains("damaged") == true)
    }

    /// A crash in the middle of an append leaves a torn last line: that press's
    /// command never went out, so it is skipped, said once (issue 23), and the
    /// next record does not land glued to it.
    @Test func aTornLastLineIsSkippedAndSaid() throws {
        let store = EventIdStore(directory: try directory())
        try "{\"id\":\"a\",\"expires_at_ms\":5}\n{\"id\":\"b\",\"exp".write(toFile: store.path, atomically: true, encoding: .utf8)
        let loaded = store.load()
        #expect(loaded.events.map(\.id) == ["a"])
        #expect(loaded.problem?.contains("torn last line") == true, "\(loaded.problem ?? "no problem said")")
        #expect(loaded.problem?.contains("damaged") == false)
        try store.record(RememberedEvent(id: "c", expiresAtMs: 7))
        #expect(EventIdStore(directory: store.directory).load().events.map(\.id) == ["a", "c"])
    }

    @Test func theFileOfAnEarlierVersionIsReadAndMigrated() throws {
        let store = EventIdStore(directory: try directory())
        let legacy = store.directory + "/" + EventIdStore.legacyFileName
        try "{\"version\":1,\"events\":[{\"id\":\"old\",\"expires_at_ms\":9}]}\n".write(toFile: legacy, atomically: true, encoding: .utf8)
        let loaded = store.load()
        #expect(loaded.events == [RememberedEvent(id: "old", expiresAtMs: 9)])
        try store.record(RememberedEvent(id: "new", expiresAtMs: 10))
        #expect(!FileManager.default.fileExists(atPath: legacy))
        #expect(EventIdStore(directory: store.directory).load().events.map(\.id) == ["old", "new"])
    }

    /// The writer never makes a file the reader refuses: the most ids, each of
    /// the longest accepted length, each character one that JSON escapes.
    @Test func theLargestFileTheWriterMakesIsReadBack() throws {
        let store = EventIdStore(directory: try directory())
        _ = store.load()
        let events = (0..<EventIdStore.maxEvents).map { index in
            let prefix = "\(index)"
            return RememberedEvent(id: prefix + String(repeating: "\"", count: PressEnvelope.maxIdBytes - prefix.count),
                                   expiresAtMs: Int64(index))
        }
        for event in events { try store.record(event) }
        let size = try #require(FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int)
        #expect(size <= EventIdStore.maxFileBytes)
        let loaded = EventIdStore(directory: store.directory).load()
        #expect(loaded.problem == nil)
        #expect(loaded.events.count == EventIdStore.maxEvents)
    }

    /// Issue 12 (lower): the temp file is created afresh, never through a planted link, mode 0600.
    @Test func theTempFileIsExclusivePrivateAndNeverFollowsALink() throws {
        let directory = try directory()
        let victim = directory + "/victim"
        try "keep me".write(toFile: victim, atomically: true, encoding: .utf8)
        let store = EventIdStore(directory: directory)
        try FileManager.default.createSymbolicLink(atPath: store.path + ".tmp", withDestinationPath: victim)
        try store.record(RememberedEvent(id: "a", expiresAtMs: 1))
        try store.forget(["a"])
        try store.record(RememberedEvent(id: "b", expiresAtMs: 2))
        _ = store.load()
        for index in 0..<300 { try store.record(RememberedEvent(id: "c\(index)", expiresAtMs: 3)) }
        try store.forget(["a", "b"] + (0..<300).map { "c\($0)" })   // "a" came back with the load
        #expect(lines(store.path).isEmpty, "compacted to nothing")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        let mode = try #require(FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    @Test func aLinkPlantedAsTheLogIsRefused() throws {
        let directory = try directory()
        let store = EventIdStore(directory: directory)
        try FileManager.default.createSymbolicLink(atPath: store.path, withDestinationPath: directory + "/elsewhere")
        #expect(throws: FileError.self) { try store.openForAppending() }
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
        #expect(throws: FileError.self) { try store.record(RememberedEvent(id: "x", expiresAtMs: 1)) }
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

    /// `demo --listen HOST` reads its host by the same rules as status.listen (issue 22 item 13).
    @Test(arguments: [
        ("localhost", "127.0.0.1", true), ("127.0.0.1", "127.0.0.1", true), ("::1", "::1", true), ("[::1]", "::1", true),
        ("0.0.0.0", "0.0.0.0", false), ("::", "::", false), ("192.168.1.4", "192.168.1.4", false),
    ])
    func parsesAListenHostAlone(text: String, host: String, isLoopback: Bool) {
        #expect(ListenAddress.parse(host: text, port: 0) == ListenAddress(host: host, port: 0, isLoopback: isLoopback))
        let withPort = host.contains(":") ? "[\(host)]:8080" : "\(text):8080"
        #expect(ListenAddress.parse(withPort)?.host == host, "status.listen reads it the same way")
    }

    @Test(arguments: ["", "myhost", "localhost:80", "127.0.0.01", "[::1", "1:2:3:4:5:6:7:8:9", "local host"])
    func refusesABadListenHost(text: String) {
        #expect(ListenAddress.parse(host: text, port: 0) == nil)
    }

    @Test func joinsURLsWithoutDoubleSlashes() {
        #expect(AiviLink.join("https://api.getaivi.app/", "/widget/x") == "https://api.getaivi.app/widget/x")
        #expect(AiviLink.join("https://api.getaivi.app", "events") == "https://api.getaivi.app/events")
    }

}

/// Issue 19 item 9 (event ids): the store keys ids by their bytes, so an id in
/// NFC and its NFD twin are two records, both read back.
@Suite("The id store keys ids by their bytes")
struct EventIdStoreBytesTests {
    @Test func canonicallyEquivalentIdsAreTwoRecords() throws {
        let directory = try TemporaryDirectory(prefix: "idbytes")
        let store = EventIdStore(directory: directory.path)
        _ = store.load()
        let events = [RememberedEvent(id: "evt_caf\u{E9}", expiresAtMs: 10), RememberedEvent(id: "evt_cafe\u{301}", expiresAtMs: 10)]
        for event in events { try store.record(event) }
        let loaded = EventIdStore(directory: directory.path).load()
        #expect(Set(loaded.events.map { Array($0.id.utf8) }) == Set(events.map { Array($0.id.utf8) }))
    }
}
