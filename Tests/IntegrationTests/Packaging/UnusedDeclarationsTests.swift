import Foundation
import Testing

/// Issue 42 §3: no declaration in Sources/ that nothing in Sources/ uses (tests do not
/// count), but those `Tests/tools/unused-declarations.allow` names with a reason. Runs
/// `Tests/tools/unused-declarations` (a Python script, under a second) so the check is
/// part of the README's `swift test`.
@Suite("Unused declarations")
struct UnusedDeclarationsTests {
    static let packageRoot = PackagingTests.packageRoot
    static let script = packageRoot.appendingPathComponent("Tests/tools/unused-declarations").path
    static let allowList = packageRoot.appendingPathComponent("Tests/tools/unused-declarations.allow").path

    /// The script's exit status and its standard output and error, together.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// A copy of Sources/ (and the allow-list) in a fresh directory, to change.
    static func copyOfSources() throws -> URL {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("unused-declarations-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Sources"),
                                         to: root.appendingPathComponent("Sources"))
        return root
    }

    @Test func everyDeclarationInSourcesIsUsedOrAllowed() throws {
        let (status, output) = try Self.run([])
        #expect(status == 0, "\(output)")
        #expect(output.isEmpty, "\(output)")
    }

    @Test func aDeclarationNothingUsesFailsTheCheck() throws {
        let root = try Self.copyOfSources()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("Sources/BridgeCore/Core/AiviServiceLimits.swift")
        var text = try String(contentsOf: file, encoding: .utf8)
        if !text.hasSuffix("\n") { text += "\n" }
        let first = text.filter { $0 == "\n" }.count + 1
        let injected = """
            extension AiviServiceLimits {
                /// Named only here, in a comment (neverNamedElsewhere) and in a string's text.
                public static let neverNamedElsewhere = "neverNamedElsewhere \\(InjectedKind.matched)"
                static func `neverCalled`() {}
                enum InjectedKind { case neverMatched, matched }
            }

            """
        try (text + injected).write(to: file, atomically: true, encoding: .utf8)

        let (status, output) = try Self.run(["--root", root.path, "--allow", Self.allowList])
        let findings = output.split(separator: "\n").filter { $0.hasPrefix("Sources/") }.map(String.init)
        #expect(status == 1, "\(output)")
        let path = "Sources/BridgeCore/Core/AiviServiceLimits.swift"
        #expect(findings == [
            "\(path):\(first + 2): let neverNamedElsewhere: nothing in Sources/ uses it",
            "\(path):\(first + 3): func neverCalled: nothing in Sources/ uses it",
            "\(path):\(first + 4): case neverMatched: nothing in Sources/ uses it",
        ], "\(output)")
        #expect(output.contains("3 unused declaration(s)"), "\(output)")
    }

    @Test func anAllowListEntryWithoutAReasonOrWithoutItsDeclarationFails() throws {
        let root = try Self.copyOfSources()
        defer { try? FileManager.default.removeItem(at: root) }
        let allowList = root.appendingPathComponent("allow")
        let kept = try String(contentsOfFile: Self.allowList, encoding: .utf8)
        try (kept + "BridgeCore/Core/Bridge.swift handle\nBridgeCore/Core/Bridge.swift Bridge used everywhere\n")
            .write(to: allowList, atomically: true, encoding: .utf8)
        let (status, output) = try Self.run(["--root", root.path, "--allow", allowList.path])
        #expect(status == 1, "\(output)")
        #expect(output.contains("\"BridgeCore/Core/Bridge.swift handle\": give the file, the name and the reason"), "\(output)")
        #expect(output.contains("BridgeCore/Core/Bridge.swift Bridge: allowed, but not an unused declaration"), "\(output)")
    }
}
