@testable import BridgeCore
import Foundation
import Testing

/// Issue 22 item 13: the tiles' icons are inline SVG (no emoji font needed: without
/// one they were boxes), `powerplug.fill` — what discover writes for plugs — has one,
/// and every icon the demo, the examples, the package's config, the documentation and
/// discover can write is drawn, not the unknown square (`stairs`, `figure.walk` were).
struct TileIconTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // Tests/BridgeCoreTests/Status/Page/

    /// The value of every `icon:` line, commented or not, of a file.
    static func icons(inFile path: String) -> [String] {
        let text = (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " || $0 == "#" || $0 == "-" }
            guard trimmed.hasPrefix("icon: ") else { return nil }
            return trimmed.dropFirst(6).split(separator: " ").first.map(String.init)
        }
    }

    /// Every config the project ships or shows: config/*.yaml (the demo's and the
    /// examples, installed as examples/), the package's starting config, the README's
    /// and the man page's.
    static var shippedIcons: [String: [String]] {
        let configs = ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("config").path)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.map { "config/" + $0 }
        let files = configs + ["packaging/bridge.yaml", "README.md", "packaging/man/switchboard-bridge.yaml.5"]
        return Dictionary(uniqueKeysWithValues: files.map { ($0, icons(inFile: $0)) })
    }

    /// What discover can write: each kind's icon and its commented scene's.
    static let discoveredIcons = AnnouncedKind.allCases.map(\.icon) + [DiscoveredConfigWriter.allOffSceneIcon]

    @Test func everyIconTheProjectWritesIsDrawn() {
        let shipped = Self.shippedIcons
        #expect(shipped["config/demo.yaml"]?.count ?? 0 >= 10, "the scan reads the demo: \(shipped)")
        #expect(shipped["README.md"]?.isEmpty == false && shipped["packaging/bridge.yaml"]?.isEmpty == false)
        for (file, icons) in shipped {
            for icon in icons { #expect(TileIcon.isKnown(icon), "\(file): icon \(icon) has no drawing") }
        }
        for icon in Self.discoveredIcons { #expect(TileIcon.isKnown(icon), "discover writes \(icon), which has no drawing") }
        #expect(Self.discoveredIcons.contains("powerplug.fill"))
    }

    @Test func familiesAreMatchedByWholeNameLevels() {
        #expect(TileIcon.shape("powerplug.fill") != TileIcon.shape("power"), "a plug is not the power symbol")
        #expect(TileIcon.shape("door.garage.closed") != TileIcon.shape("door.left.hand.closed"), "a garage is not a door")
        #expect(TileIcon.shape("lamp.desk.fill") == TileIcon.shape("lightbulb.fill"))
        #expect(TileIcon.shape("stairs") != TileIcon.unknownShape)
        #expect(TileIcon.shape("no.such.symbol") == TileIcon.unknownShape)
        #expect(TileIcon.shape("doorbell") == TileIcon.unknownShape, "'door' is a level, not a prefix of any word")
        #expect(TileIcon.shape(nil) == TileIcon.unknownShape)
    }

    @Test func eachFamilyHasADrawingOfItsOwn() {
        let shapes = TileIcon.families.map { $0.shape } + [TileIcon.unknownShape]
        #expect(Set(shapes).count == shapes.count, "two families share a drawing")
        let prefixes = TileIcon.families.flatMap { $0.prefixes }
        #expect(Set(prefixes).count == prefixes.count, "a prefix listed twice")
    }

    @Test(arguments: ["powerplug.fill", "lightbulb.fill", "stairs", "no.such.symbol", nil] as [String?])
    func theMarkIsAnSVGWithoutAGlyph(icon: String?) throws {
        let face = TileFace(id: "a", label: "Porch light", isToggle: true, state: .on, isShownOn: true, icon: icon)
        let html = SwitchboardTileHTML.tile(face, isPressable: true)
        let mark = try #require(html.range(of: "<span class=\"mark\">").map { html[$0.upperBound...] })
        #expect(mark.hasPrefix("<svg class=\"icon\" viewBox=\"0 0 24 24\""), "\(html)")
        let isASCII = html.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(isASCII, "no emoji or symbol character to need a font: \(html)")
    }
}
