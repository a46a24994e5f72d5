import AiviSim
import BridgeCore
import Foundation
import Testing

/// Issue 41 §1 (after issue 22 items 11-12): the README is the homeowner's manual — what
/// it is in plain words first, what you need, the demo near the top, the set-up in order
/// (install, discover, check, token, start, check it works), what a tile shows,
/// troubleshooting; under 600 lines; the config reference in man 5, developer material in
/// CONTRIBUTING.md. Its test command is the line CI runs.
@Suite struct ReadmeLayoutTests {
    static let readme = (try? String(contentsOf: PackagingTests.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    static let contributing = (try? PackagingTests.text("CONTRIBUTING.md")) ?? ""

    /// Whether the README holds `text` (a failed expectation shows `text`, not the README).
    static func readmeHas(_ text: String) -> Bool { readme.contains(text) }

    func offset(_ text: String) -> Int? {
        Self.readme.range(of: text).map { Self.readme.distance(from: Self.readme.startIndex, to: $0.lowerBound) }
    }

    /// The README's headings, `#` marks and number removed (`### 3. \`check\` it` → "`check` it").
    static var headings: [String] {
        readme.split(separator: "\n").filter { $0.hasPrefix("#") }.map { line in
            var title = line.drop { $0 == "#" }.drop { $0 == " " }
            if let dot = title.firstIndex(of: "."), title[..<dot].allSatisfy(\.isNumber), !title[..<dot].isEmpty {
                title = title[title.index(after: dot)...].drop { $0 == " " }
            }
            return String(title)
        }
    }

    static var ciTestLine: String {
        get throws {
            let ci = try PackagingTests.text(".ci/run")
            return try #require(ci.split(separator: "\n").first { $0.hasSuffix("&& bash .ci/test") }.map(String.init),
                                ".ci/run runs the README's test command, ending in '&& bash .ci/test'")
        }
    }

    @Test func theTestCommandIsTheLineCIRuns() throws {
        let line = try Self.ciTestLine
        let inReadme = Self.readmeHas("\n\(line)\n"), inContributing = Self.contributing.contains("\n\(line)\n")
        #expect(inReadme, "README.md's test command is not .ci/run's: \(line)")
        #expect(inContributing, "CONTRIBUTING.md's test command is not .ci/run's: \(line)")
        let wrapper = PackagingTests.packageRoot.appendingPathComponent(".ci/test").path
        #expect(FileManager.default.isExecutableFile(atPath: wrapper), ".ci/test must exist and be executable")
    }

    @Test func theHomeownersPartComesFirstAndTheDevelopersLast() throws {
        let headings = ["## What you need", "## See it work first", "## Set it up", "### 1. Install the package",
                        "### 2. Your config: `discover`", "### 3. `check` it", "### 4. The token", "### 5. Start it",
                        "### 6. Check that it works", "## What a tile shows", "## Troubleshooting", "### My tile never updates",
                        "## Configuration", "## For developers"]
        let offsets = try headings.map { heading in try #require(offset("\n\(heading)\n"), "no '\(heading)'") }
        #expect(offsets == offsets.sorted(), "\(zip(headings, offsets).map { "\($0) @\($1)" })")
        let need = try #require(Self.readme.range(of: "## What you need"))
        let demo = try #require(Self.readme.range(of: "## See it work first"))
        let section = Self.readme[need.upperBound..<demo.lowerBound]
        for thing in ["Aivi account", "slug", "API token", "MQTT broker", "64-bit", "trixie"] {
            let has = section.contains(thing)
            #expect(has, "'\(thing)' not in What you need")
        }
        let demoLine = Self.readme[..<demo.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(demoLine <= 60, "the demo starts on line \(demoLine): keep it on the first screen")
    }

    /// What it is comes first, in plain words: no jargon before "What you need".
    @Test func theIntroductionIsInPlainWords() throws {
        let need = try #require(Self.readme.range(of: "## What you need"))
        let intro = Self.readme[..<need.lowerBound].lowercased()
        for word in ["daemon", "event stream", "explicit command", "idempotent", "patch"] {
            let jargon = intro.contains(word)
            #expect(!jargon, "'\(word)' in the README's introduction: say it in plain words")
        }
        for thing in ["raspberry pi", "phone", "switchboard", "mqtt"] {
            let has = intro.contains(thing)
            #expect(has, "the introduction does not say '\(thing)'")
        }
    }

    @Test func theReadmeIsTheHomeownersManual() {
        let lines = Self.readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines < 600, "README.md has \(lines) lines: move reference material to man 5 or CONTRIBUTING.md")
        #expect(Self.readmeHas("man 5 switchboard-bridge.yaml"), "the README points to the config reference")
        #expect(Self.readmeHas("CONTRIBUTING.md"))
        for heading in ["## Run the tests", "## What is where", "## The Debian package", "## Fuzzing", "## Benchmarks"] {
            let has = Self.contributing.contains("\n\(heading)\n")
            #expect(has, "CONTRIBUTING.md lacks '\(heading)'")
        }
    }

    /// Raspberry Pi OS is Debian 13 trixie: no bookworm-only instruction, no `pi` user
    /// (the image has none by default).
    @Test func theInstructionsAreForTrixie() {
        for (name, text) in [("README.md", Self.readme), ("CONTRIBUTING.md", Self.contributing)] {
            let pi = text.contains("pi@")
            #expect(!pi, "\(name) names the user 'pi'")
        }
        // What you need names trixie, not bookworm; bookworm appears only as the older
        // release the package does not install on (issue 40: bookworm boards build from source).
        let need = Self.readme.components(separatedBy: "## What you need").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        #expect(need.contains("trixie") && !need.lowercased().contains("bookworm"), "What you need: \(need)")
        let bookwormLines = Self.readme.split(separator: "\n").filter { $0.lowercased().contains("bookworm") }
        #expect(bookwormLines.allSatisfy { $0.contains("on bookworm") }, "\(bookwormLines)")
        #expect(Self.readmeHas("sudo apt install swiftlang libmosquitto-dev libcurl4-openssl-dev"))
        #expect(Self.readmeHas("packaging/build-deb --arch arm64"))
    }

    /// A line that installs packages with apt-get works as root on a minimal system
    /// (no sudo there): `$(command -v sudo)`, never a bare `sudo`.
    @Test func aptGetLinesWorkWithoutSudo() {
        for (name, text) in [("README.md", Self.readme), ("CONTRIBUTING.md", Self.contributing)] {
            for line in text.split(separator: "\n") where line.contains("apt-get install") {
                #expect(!line.contains("sudo apt-get") || line.contains("$(command -v sudo) apt-get"), "\(name): \(line)")
                #expect(!line.hasPrefix("sudo "), "\(name): \(line)")
            }
        }
    }

    /// An earlier install from source shadows the package: the README says how to remove it.
    @Test func theReadmeSaysHowToRemoveAnEarlierInstallFromSource() {
        #expect(Self.readmeHas("sudo rm -f /usr/local/bin/switchboard-bridge /etc/systemd/system/switchboard-bridge.service"))
        #expect(Self.readmeHas("sudo systemctl daemon-reload"))
    }

    /// The unit's comment names README sections that exist.
    @Test func theUnitsCommentNamesAReadmeSectionThatExists() throws {
        let unit = try PackagingTests.text("systemd/switchboard-bridge.service")
        let named = unit.matches(of: /README\.md, "([^"]+)"/).map { String($0.1) }
        #expect(!named.isEmpty, "the unit's comment points to the README")
        let headings = Self.headings
        for section in named {
            let exists = headings.contains(section)
            #expect(exists, "the unit names README section '\(section)', not among \(headings)")
        }
        for section in unit.matches(of: /CONTRIBUTING\.md, "([^"]+)"/).map({ String($0.1) }) {
            let has = Self.contributing.contains("## \(section)\n")
            #expect(has, "the unit names CONTRIBUTING.md section '\(section)'")
        }
    }

    /// The status page is on in the package's config, on loopback, and the README says how
    /// to reach it.
    @Test func theStatusPageIsShippedOnOnLoopback() throws {
        let loaded = ConfigLoader.load(text: try PackagingTests.text("packaging/bridge.yaml"), fileName: "bridge.yaml")
        let status = try #require(loaded.config?.status, "packaging/bridge.yaml turns the status page on")
        let address = try #require(ListenAddress.parse(status.listen))
        #expect(address.isLoopback)
        #expect(Self.readmeHas("ssh -N -L \(address.port):127.0.0.1:\(address.port) "))
        #expect(Self.readmeHas("http://127.0.0.1:\(address.port)/"))
    }

    /// The Shelly gen2 example and the man page agree: the factory settings are enough.
    @Test func theShellyPlusExampleAndTheManPageAgree() throws {
        let example = try PackagingTests.text("config/shelly-plus.yaml")
        let page = try PackagingTests.text("packaging/man/switchboard-bridge.yaml.5")
        for text in [example, page] {
            #expect(text.contains("\"Generic status update\" is not needed") || text.contains("\"Generic status update over MQTT\" is not needed"))
        }
    }

    @Test func theTileTableNamesEveryStateThePhoneShows() throws {
        let start = try #require(offset("## What a tile shows"))
        let section = Self.readme[Self.readme.index(Self.readme.startIndex, offsetBy: start)...].prefix(4_000)
        let states: [TileState] = [.on, .off, .turningOn, .turningOff, .noResponse, .sent, .active, .idle]
        for state in states {
            let has = section.contains("**\(state.rawValue)**")
            #expect(has, "What a tile shows lacks **\(state.rawValue)**")
        }
        let offExplained = section.contains("nothing was ever heard from it") && section.contains("unreachable")
        #expect(offExplained, "Off: unreachable, or nothing ever heard")
    }
}
