import Testing
import TestSupport
@testable import BridgeCore

@Suite struct DiscoveryOutputTests {
    @Test func allSourcesWriteAConfigTheLoaderAccepts() {
        let text = discoveredConfig(allSourcesMessages)
        let loaded = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(loaded.errors.isEmpty, "\(loaded.rendered())")
    }

    @Test func anAbsurdlyLongAnnouncedNameBecomesAShortLabel() {
        let longName = String(repeating: "Lamp ", count: 20_000)
        let announcement = DiscoveryFixtures.tasmotaSingleRelay.replacingAll(#""fn":["Tasmota","#, with: "\"fn\":[\"\(longName)\",")
        let text = discoveredConfig([("tasmota/discovery/A4CF12B3C4D5/config", announcement)])
        let label = text.split(separator: "\n").map { $0.drop { $0 == " " } }.first { $0.hasPrefix("label: ") }
        #expect(label != nil)
        #expect((label?.count ?? .max) <= "label: ".count + DiscoveredConfigWriter.maxLabelCharacters + 2)
        #expect(label?.hasSuffix("…") == true || label?.hasSuffix("…'") == true || label?.hasSuffix("…\"") == true)
    }
}
