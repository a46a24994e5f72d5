import BridgeCore
import Foundation
import Testing
import TestSupport

/// Issue 19 item 13: a write of `discover --output` that failed part way (a full disk,
/// a file size limit) left a truncated file at the path, and a rerun refused it as
/// existing. The bytes now go to a temp file beside it, which is linked into place
/// only when complete: a failed write leaves nothing, and a rerun works.
@Suite(.serialized) struct DiscoverOutputFailureTests {
    @Test func aWriteOverTheFileSizeLimitLeavesNoFileAndARerunWrites() throws {
        let directory = try TemporaryDirectory(prefix: "discover-fsize")
        defer { directory.remove() }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let devices = try DiscoverDevices(brokerPort: broker.port)
        defer { devices.stop() }
        let output = directory.file("bridge.yaml")
        let arguments = ["discover", "--port", "\(broker.port)", "--seconds", "1", "--output", output]

        // 1 KiB of file size at most (the config is several), SIGXFSZ ignored so write() fails with EFBIG.
        let limited = try run(directory, "discover-limited", "/bin/bash",
                              ["-c", #"trap '' XFSZ; ulimit -f 1; exec "$0" "$@""#, EndToEndHarness.bridgeExecutable] + arguments)
        #expect(limited.status == 1, "\(limited.stderr)")
        #expect(limited.stderr.contains("cannot write \(output)"), "\(limited.stderr)")
        #expect(limited.stderr.contains("File too large"), "\(limited.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output), "a truncated file was left")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("bridge.yaml") }.isEmpty)

        let rerun = try run(directory, "discover-rerun", EndToEndHarness.bridgeExecutable, arguments)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.utf8.count > 1_024)
        #expect(ConfigLoader.load(text: text, fileName: "bridge.yaml").errors.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("bridge.yaml") } == ["bridge.yaml"])

        // An existing file is still never replaced.
        let again = try run(directory, "discover-again", EndToEndHarness.bridgeExecutable, arguments)
        #expect(again.status == 2 && again.stderr.contains("refusing to overwrite"), "\(again.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == text)
    }

    private func run(_ directory: TemporaryDirectory, _ name: String, _ executable: String, _ arguments: [String])
        throws -> (status: Int32?, stderr: String) {
        let process = try ChildProcess(executable: executable, arguments: arguments, directory: directory.path, name: name,
                                       environment: ["PATH": "/usr/bin:/bin"])
        let status = process.waitForExit(timeoutSeconds: 30)
        return (status, process.stderr)
    }
}
