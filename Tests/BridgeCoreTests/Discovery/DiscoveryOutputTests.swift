import Testing
@testable import BridgeCore

@Suite struct DiscoveryOutputTests {
    @Test func allSourcesWriteAConfigTheLoaderAccepts() {
        let text = discoveredConfig(allSourcesMessages)
        print(text)
        let loaded = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(loaded.errors.isEmpty, "\(loaded.rendered())")
    }
}
