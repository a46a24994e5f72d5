import BridgeCore
import Testing

/// The project's one calendar (issue 42: it was written five times): every
/// date and timestamp conversion goes through `CivilDate`, so these rows are
/// the table for all of them.
@Suite struct CivilDateTests {
    /// (days since 1970-01-01, year, month, day): leap days and the days around
    /// them (2000 is a leap year, 1900 and 2100 are not), month and year ends,
    /// dates before the epoch, and the first and last days a 4-digit year writes.
    static let days: [(Int64, Int64, Int64, Int64)] = [
        (0, 1970, 1, 1),
        (-1, 1969, 12, 31),
        (-672, 1968, 2, 29),
        (-3_653, 1960, 1, 1),
        (-25_509, 1900, 2, 28),
        (-25_508, 1900, 3, 1),
        (-135_081, 1600, 2, 29),
        (-719_162, 1, 1, 1),
        (-719_468, 0, 3, 1),
        (-719_469, 0, 2, 29),
        (11_016, 2000, 2, 29),
        (11_017, 2000, 3, 1),
        (19_416, 2023, 2, 28),
        (19_417, 2023, 3, 1),
        (19_782, 2024, 2, 29),
        (20_573, 2026, 4, 30),
        (20_574, 2026, 5, 1),
        (20_818, 2026, 12, 31),
        (20_819, 2027, 1, 1),
        (47_540, 2100, 2, 28),
        (47_541, 2100, 3, 1),
        (2_932_896, 9999, 12, 31),
        (2_932_897, 10000, 1, 1),
    ]

    @Test(arguments: days)
    func aDayCountAndItsDateAreOneAnother(days: Int64, year: Int64, month: Int64, day: Int64) {
        let date = CivilDate(year: year, month: month, day: day)
        #expect(CivilDate(daysSinceEpoch: days) == date)
        #expect(date.daysSinceEpoch == days)
    }

    /// Every day of four centuries around the epoch (one whole 400-year cycle and
    /// more) goes to a valid date and back, one day after the other.
    @Test func everyDayOfFourCenturiesRoundTripsInOrder() {
        var previous = CivilDate(daysSinceEpoch: -146_098)
        for days in Int64(-146_097)...146_097 {
            let date = CivilDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            let isNextDay = date.year == previous.year && date.month == previous.month && date.day == previous.day + 1
            let isNextMonth = date.day == 1 && (date.month == previous.month + 1 && date.year == previous.year
                || date.month == 1 && previous.month == 12 && date.year == previous.year + 1)
            if !(isNextDay || isNextMonth) {
                Issue.record("\(previous) then \(date) at day \(days)")
                return
            }
            previous = date
        }
    }

    /// Instants split into their day and the time since its midnight, rounding
    /// down before the epoch, and never overflowing at the ends of the clock.
    @Test(arguments: [
        (Int64(0), Int64(0), Int64(0)),
        (86_399_999, 0, 86_399_999),
        (86_400_000, 1, 0),
        (-1, -1, 86_399_999),
        (-86_400_000, -1, 0),
        (-86_400_001, -2, 86_399_999),
        (Int64.min, -106_751_991_168, 60_424_192),
        (Int64.max, 106_751_991_167, 25_975_807),
    ])
    func anInstantSplitsIntoItsDayAndTime(epochMs: Int64, days: Int64, msOfDay: Int64) {
        let split = CivilDate.split(epochMs: epochMs)
        #expect(split.daysSinceEpoch == days)
        #expect(split.msOfDay == msOfDay)
    }

    /// The one ISO 8601 writer and reader agree, at the bounds of a 4-digit year
    /// and before the epoch.
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-2_208_988_800_000, "1900-01-01T00:00:00.000Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
        (951_868_799_999, "2000-02-29T23:59:59.999Z"),
        (1_795_986_000_120, "2026-11-29T21:00:00.120Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func timestampsAreWrittenAndReadBack(epochMs: Int64, text: String) {
        #expect(ISO8601Timestamp.text(epochMs: epochMs) == text)
        #expect(ISO8601Timestamp.milliseconds(from: text) == epochMs)
    }

    /// Past year 9999 the writer takes more digits; the reader (4-digit years)
    /// refuses rather than misreads.
    @Test func yearTenThousandIsWrittenWholeAndNotReadBack() {
        let text = ISO8601Timestamp.text(epochMs: 253_402_300_800_000)
        #expect(text == "10000-01-01T00:00:00.000Z")
        #expect(ISO8601Timestamp.milliseconds(from: text) == nil)
        #expect(HTTPDate.milliseconds(from: "Fri, 31 Dec 9999 23:59:59 GMT") == 253_402_300_799_000)
        #expect(HTTPDate.milliseconds(from: "Sat, 01 Jan 10000 00:00:00 GMT") == nil)
    }
}
