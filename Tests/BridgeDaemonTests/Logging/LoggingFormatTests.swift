import Testing

@testable import BridgeDaemon

@Suite struct LoggingFormatTests {
    @Test(arguments: [
        ("error", LogLevel.error), ("ERR", .error), ("warning", .warning), ("Warn", .warning),
        ("info", .info), ("DEBUG", .debug),
    ])
    func parsesLogLevels(text: String, expected: LogLevel) throws {
        #expect(try LogLevel(parsing: text) == expected)
    }

    @Test(arguments: ["", "verbose", "4", "trace"])
    func rejectsUnknownLogLevelsNamingTheChoices(text: String) {
        #expect(throws: LogLevelParseError(value: text)) { try LogLevel(parsing: text) }
        #expect(LogLevelParseError(value: text).description.contains("error, warning, info, debug"))
    }

    @Test func levelsOrderBySeverity() {
        #expect(LogLevel.warning.isShown(atMinimum: .info))
        #expect(LogLevel.info.isShown(atMinimum: .info))
        #expect(!LogLevel.debug.isShown(atMinimum: .info))
        #expect(!LogLevel.warning.isShown(atMinimum: .error))
    }

    @Test(arguments: [
        (LogLevel.error, "<3>broker refused the connection"),
        (.warning, "<4>broker refused the connection"),
        (.info, "<6>broker refused the connection"),
        (.debug, "<7>broker refused the connection"),
    ])
    func journalLinesCarryTheSyslogPriorityAndNoTimestamp(level: LogLevel, expected: String) {
        let formatter = LogLineFormatter(format: .journal)
        #expect(formatter.line(level: level, message: "broker refused the connection", epochMs: 1_780_000_000_123) == expected)
    }

    @Test(arguments: [
        (LogLevel.error, "2026-05-28T20:26:40.123Z error press failed"),
        (.warning, "2026-05-28T20:26:40.123Z warning press failed"),
        (.info, "2026-05-28T20:26:40.123Z info press failed"),
        (.debug, "2026-05-28T20:26:40.123Z debug press failed"),
    ])
    func plainLinesStartWithAnISO8601UTCTimestamp(level: LogLevel, expected: String) {
        let formatter = LogLineFormatter(format: .plain)
        #expect(formatter.line(level: level, message: "press failed", epochMs: 1_780_000_000_123) == expected)
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (1_709_251_199_000, "2024-02-29T23:59:59.000Z"),
        (1_780_000_000_123, "2026-05-28T20:26:40.123Z"),
        (4_102_444_799_999, "2099-12-31T23:59:59.999Z"),
        (-5, "1970-01-01T00:00:00.000Z"),
    ])
    func formatsTimestamps(epochMs: Int64, expected: String) {
        #expect(LogTimestamp.format(epochMs: epochMs) == expected)
    }

    /// Issue 23: the line is built in one byte buffer; the timestamp's bytes are
    /// the same as its text, from the first year to one of five digits.
    @Test(arguments: [Int64(0), 1_780_000_000_123, 253_402_300_799_999, 253_402_300_800_000, Int64.max])
    func aTimestampsBytesAreItsText(epochMs: Int64) {
        var bytes: [UInt8] = Array("x ".utf8)
        LogTimestamp.append(epochMs: epochMs, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x " + LogTimestamp.format(epochMs: epochMs))
        #expect(LogTimestamp.format(epochMs: 253_402_300_800_000) == "10000-01-01T00:00:00.000Z")
        let line = LogLineFormatter(format: .plain).line(level: .info, message: "press e1 carried out", epochMs: epochMs)
        #expect(line == LogTimestamp.format(epochMs: epochMs) + " info press e1 carried out")
    }

    /// Issue 23: the sink keeps a timestamp's date and time up to the second between
    /// lines; every line still reads as its own time: within a second, across a
    /// second, a day, a year, and with the clock stepped back.
    @Test func timestampsOfLinesInARowAreEachTheirOwn() {
        var clock = LogTimestamp.SecondCache()
        let times: [Int64] = [1_780_000_000_123, 1_780_000_000_999, 1_780_000_001_000, 1_780_000_001_007, 1_767_225_599_999,
                              1_767_225_600_000, 1_780_000_000_123, 0, 253_402_300_800_000, 253_402_300_800_001]
        for epochMs in times {
            var bytes: [UInt8] = []
            clock.append(epochMs: epochMs, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == LogTimestamp.format(epochMs: epochMs), "\(epochMs)")
        }
    }

    /// Issue 23: a shell message's kind is its call site, kept as numbers: the same
    /// site is one kind, another line or level another.
    @Test func aCallSiteIsOneKind() {
        func key(_ level: LogLevel = .info, line: UInt = #line) -> LogEventKey { LogEventKey(level: level, fileID: #fileID, line: line) }
        let site = { key() }
        #expect(site() == site())
        let first = key()
        let second = key()
        #expect(first != second)
        #expect(key(.info, line: 7) != key(.warning, line: 7))
        #expect(key(line: 7) != LogEventKey(level: .info, kind: "BridgeDaemon/X.swift:7"))
    }

    /// A kind or an example of no more bytes than the limit is kept whole, without
    /// counting its characters; a longer one is cut by characters, not bytes.
    @Test func kindsAreCutByCharacters() {
        let short = String(repeating: "é", count: 120)
        #expect(LogEventKey(level: .info, kind: short).kind == short)
        let long = String(repeating: "é", count: 300)
        #expect(LogEventKey(level: .info, kind: long).kind == String(repeating: "é", count: LogEventKey.maximumKindCharacters))
        #expect(LogEventKey(level: .info, kind: long).kind.count == 240)
    }

    @Test func anEventStaysOnOneLine() {
        let formatter = LogLineFormatter(format: .journal)
        let line = formatter.line(level: .warning, message: "bad payload:\n{\"a\":\t1}\r\u{1B}[31m", epochMs: 0)
        #expect(line == "<4>bad payload:\\n{\"a\":\\t1}\\r?[31m")
    }

    /// C1 controls (CSI is `\u{9B}`), line separators and bidirectional overrides are
    /// replaced like C0 ones: a terminal or a journal viewer would act on them.
    @Test(arguments: [
        ("\u{9B}31mred", "?31mred"), ("a\u{85}b", "a?b"), ("a\u{2028}b", "a?b"), ("evil\u{202E}txt.exe", "evil?txt.exe"),
        ("\u{7F}\u{9F}", "??"), ("café ☕", "café ☕"),
    ])
    func controlCharactersOfEveryKindAreReplaced(message: String, expected: String) {
        #expect(LogLineFormatter.singleLine(message) == expected)
    }

    @Test(arguments: [
        (String(repeating: "a", count: 4_096), String(repeating: "a", count: 4_096)),
        (String(repeating: "a", count: 4_097), String(repeating: "a", count: 4_072) + "…[+25]"),
        (String(repeating: "é", count: 10_000), String(repeating: "é", count: 4_072) + "…[+5928]"),
        (String(repeating: "\n", count: 3_000), String(repeating: "\\n", count: 2_036) + "…[+964]"),
    ])
    func aLongMessageIsCutWithAMarker(message: String, expected: String) {
        let line = LogLineFormatter.singleLine(message)
        #expect(line == expected, "\(line.suffix(30))")
        #expect(line.unicodeScalars.count <= LogLineFormatter.maxMessageScalars)
    }

    @Test func aHugeMessageIsCutQuickly() {
        let line = LogLineFormatter(format: .journal).line(level: .warning, message: String(repeating: "x", count: 5_000_000), epochMs: 0)
        #expect(line.hasSuffix("…[+4995928]"))
    }

    struct DetectCase: Sendable, CustomTestStringConvertible {
        let journalStream: String?
        let standardError: FileIdentity?
        let expected: LogLineFormat
        var testDescription: String { "JOURNAL_STREAM=\(journalStream ?? "unset"), stderr \(String(describing: standardError))" }
    }

    @Test(arguments: [
        DetectCase(journalStream: nil, standardError: FileIdentity(device: 8, inode: 99), expected: .plain),
        DetectCase(journalStream: "", standardError: nil, expected: .plain),
        DetectCase(journalStream: "8:99", standardError: FileIdentity(device: 8, inode: 99), expected: .journal),
        DetectCase(journalStream: "8:99", standardError: FileIdentity(device: 8, inode: 100), expected: .plain),
        DetectCase(journalStream: "8:99", standardError: nil, expected: .journal),
        DetectCase(journalStream: "garbled", standardError: FileIdentity(device: 8, inode: 99), expected: .journal),
    ])
    func choosesTheJournalFormatFromJournalStream(testCase: DetectCase) {
        let format = LogLineFormat.detect(journalStream: testCase.journalStream, standardErrorIdentity: testCase.standardError)
        #expect(format == testCase.expected)
    }
}
