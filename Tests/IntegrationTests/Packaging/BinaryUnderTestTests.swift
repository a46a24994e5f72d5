import Testing
import TestSupport

/// The seam packaging/test-arm64 uses: the real-binary tests run the binary that
/// SWITCHBOARD_BRIDGE_UNDER_TEST names (the arm64 build, under qemu), else the one built here.
@Suite("The binary under test")
struct BinaryUnderTestTests {
    @Test("SWITCHBOARD_BRIDGE_UNDER_TEST names the binary; unset or empty, the one beside the tests")
    func chosenByTheEnvironment() {
        let testBinary = "/repo/.build/debug/switchboard-bridgePackageTests.xctest"
        #expect(FileCheckRun.bridgeExecutable(environment: ["SWITCHBOARD_BRIDGE_UNDER_TEST": "/tmp/arm64/switchboard-bridge"],
                                              testBinary: testBinary) == "/tmp/arm64/switchboard-bridge")
        #expect(FileCheckRun.bridgeExecutable(environment: [:], testBinary: testBinary) == "/repo/.build/debug/switchboard-bridge")
        #expect(FileCheckRun.bridgeExecutable(environment: ["SWITCHBOARD_BRIDGE_UNDER_TEST": ""], testBinary: testBinary)
                == "/repo/.build/debug/switchboard-bridge")
    }
}
