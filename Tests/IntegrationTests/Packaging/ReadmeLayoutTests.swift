import AiviSim
import Foundation
import Testing

/// Issue 22 items 11-12: the README read as a homeowner — the two commands first (the
/// test command exactly as CI runs it), then what you need, the set-up in order, what a
/// tile shows; developer material at the end.
@Suite struct ReadmeLayoutTests {
    static let readme = (try? String(contentsOf: PackagingTests.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    func offset(_ text: String) -> Int? {
        Self.readme.range(of: text).map { Self.readme.distance(from: Self.readme.startIndex, to: $0.lowerBound) }
    }

    @Test func theTestCommandIsTheLineCIRuns() throws {
        let ci = try String(contentsOf: PackagingTests.packageRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
        let line = try #require(ci.split(separator: "\n").first { $0.hasSuffix("&& swift test") })
        #expect(Self.readme.contains("\n\(line)\n"))
    }

    @Test func theHomeownersPartComesFirstAndTheDevelopersLast() throws {
        let headings = ["## Two commands", "## What you need", "## Set it up on a Raspberry Pi", "### 1. Install the package",
                        "### 2. Your config: `discover` first", "### 3. The token, `check`, start", "### 4. Check that it works",
                        "## What a tile shows", "## My tile never updates", "## Configuration reference", "## For developers",
                        "### What is where", "### The Debian package"]
        let offsets = try headings.map { heading in try #require(offset("\n\(heading)\n"), "no '\(heading)'") }
        #expect(offsets == offsets.sorted(), "\(zip(headings, offsets).map { "\($0) @\($1)" })")
        let need = try #require(Self.readme.range(of: "## What you need"))
        let setUp = try #require(Self.readme.range(of: "## Set it up on a Raspberry Pi"))
        let section = Self.readme[need.upperBound..<setUp.lowerBound]
        for thing in ["Aivi account", "slug", "API token", "MQTT broker", "64-bit"] {
            #expect(section.contains(thing), "'\(thing)' not in What you need")
        }
    }

    @Test func theTileTableNamesEveryStateThePhoneShows() throws {
        let start = try #require(offset("## What a tile shows"))
        let section = Self.readme[Self.readme.index(Self.readme.startIndex, offsetBy: start)...].prefix(4_000)
        let states: [TileState] = [.on, .off, .turningOn, .turningOff, .noResponse, .sent, .active, .idle]
        for state in states { #expect(section.contains("**\(state.rawValue)**"), "\(state.rawValue)") }
        #expect(section.contains("nothing was ever heard from it") && section.contains("unreachable"))
    }
}
