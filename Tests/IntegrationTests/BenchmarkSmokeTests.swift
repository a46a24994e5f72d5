import Foundation
import Testing

/// `bridge-bench --quick` runs every scenario end to end (mosquitto, the
/// simulator, the bridge binary) and prints its table. No timing is asserted:
/// the targets live in the benchmark, not in the tests.
@Suite("bridge-bench --quick smoke run")
struct BenchmarkSmokeTests {
    /// The directory of the test bundle's executable, where SwiftPM also puts
    /// the package's executables (`bridge-bench`, `switchboard-bridge`).
    static let buildDirectory: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (executable as NSString).deletingLastPathComponent
    }()

    static let benchPath = buildDirectory + "/bridge-bench"
    static let bridgePath = buildDirectory + "/switchboard-bridge"

    static var binariesArePresent: Bool {
        FileManager.default.isExecutableFile(atPath: benchPath) && FileManager.default.isExecutableFile(atPath: bridgePath)
    }

    static let timeoutSeconds = 180.0

    @Test("runs every scenario and prints the table",
          .enabled(if: binariesArePresent, "bridge-bench or switchboard-bridge is not built beside the tests (swift build first)"))
    func quickRunPrintsTheTable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-smoke-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputURL = directory.appendingPathComponent("stdout.txt")
        let errorURL = directory.appendingPathComponent("stderr.txt")
        try #require(FileManager.default.createFile(atPath: outputURL.path, contents: nil))
        try #require(FileManager.default.createFile(atPath: errorURL.path, contents: nil))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.benchPath)
        process.arguments = ["--quick", "--bridge", Self.bridgePath]
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let finished = exited.wait(timeout: .now() + Self.timeoutSeconds) == .success
        if !finished {
            kill(process.processIdentifier, SIGTERM)
            _ = exited.wait(timeout: .now() + 10)
        }
        let output = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        try #require(finished, "bridge-bench --quick did not finish within \(Int(Self.timeoutSeconds)) s\n\(errors)")
        #expect(process.terminationStatus == 0, "exit status \(process.terminationStatus)\n\(errors)")
        #expect(output.contains("| scenario"), "no table printed:\n\(output)\n\(errors)")
        for scenario in ["start", "press → command", "state → publish", "press → confirmed", "burst", "memory", "idle", "size"] {
            #expect(output.contains("| \(scenario) "), "no \(scenario) row:\n\(output)")
        }
        #expect(output.contains("target(s) missed"))
    }
}
