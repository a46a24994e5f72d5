import Testing
@testable import BridgeCore

@Suite struct DiscoveryOutputTests {
    @Test func allSourcesWriteAConfigTheLoaderAccepts() {
        let text = discoveredConfig(allSourcesMessages)
        let loaded = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(loaded.errors.isEmpty, "\(loaded.rendered())")
    }
}
