import Foundation
import Testing

/// Issue 42 §1: folders by concept, each named in CONTRIBUTING.md's tree ("What is where",
/// "The tree"), none holding more than 25 source files, so the names a newcomer reads
/// say where a change goes and stay true.
@Suite struct SourceLayoutTests {
    static let maxSourceFilesPerFolder = 25
    static let root = PackagingTests.packageRoot

    /// Every folder under `top` (relative to the package root, `top` included), with the
    /// number of Swift files directly in it.
    static func folders(under top: String) throws -> [(path: String, swiftFiles: Int)] {
        let base = root.appendingPathComponent(top)
        var found: [(String, Int)] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let url = relative.isEmpty ? base : base.appendingPathComponent(relative)
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            var swiftFiles = 0
            for name in names.sorted() {
                var isDirectory: ObjCBool = false
                FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
                if isDirectory.boolValue {
                    pending.append(relative.isEmpty ? name : relative + "/" + name)
                } else if name.hasSuffix(".swift") {
                    swiftFiles += 1
                }
            }
            if !relative.isEmpty { found.append((relative, swiftFiles)) }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// The `Sources/` part of CONTRIBUTING.md's tree as folder paths, from each line's
    /// indentation (two spaces a level) and first word (`Name/`).
    static func sourcesInTree() throws -> Set<String> {
        let text = try PackagingTests.text("CONTRIBUTING.md")
        let heading = try #require(text.range(of: "\n### The tree\n"), "CONTRIBUTING.md lacks '### The tree'")
        let block = text[heading.upperBound...].components(separatedBy: "```text\n").dropFirst().first?
            .components(separatedBy: "```").first ?? ""
        var paths: Set<String> = []
        var stack: [String] = []
        var inSources = false
        for line in block.split(separator: "\n") {
            let indent = line.prefix { $0 == " " }.count
            guard let word = line.split(separator: " ").first, word.hasSuffix("/") else { continue }
            if indent == 0 { inSources = word == "Sources/"; stack = []; continue }
            guard inSources else { continue }
            let level = indent / 2 - 1
            stack = Array(stack.prefix(level)) + [String(word.dropLast())]
            paths.insert(stack.joined(separator: "/"))
        }
        return paths
    }

    @Test func noSourceFolderHoldsMoreThan25Files() throws {
        for folder in try Self.folders(under: "Sources") {
            #expect(folder.swiftFiles <= Self.maxSourceFilesPerFolder,
                    "Sources/\(folder.path) holds \(folder.swiftFiles) Swift files: split it by concept")
        }
    }

    @Test func contributingNamesEverySourceFolderAndOnlyThose() throws {
        let onDisk = Set(try Self.folders(under: "Sources").map(\.path))
        let listed = try Self.sourcesInTree()
        #expect(onDisk.subtracting(listed).sorted() == [],
                "folders CONTRIBUTING.md's tree does not name (add a line with what goes there)")
        #expect(listed.subtracting(onDisk).sorted() == [], "folders CONTRIBUTING.md's tree names that do not exist")
    }

    @Test func contributingNamesEveryTestFolder() throws {
        let text = try PackagingTests.text("CONTRIBUTING.md")
        for folder in try Self.folders(under: "Tests") where folder.swiftFiles > 0 {
            let name = folder.path.split(separator: "/").last.map(String.init) ?? folder.path
            let named = text.contains(" \(name)/")
            #expect(named, "CONTRIBUTING.md's tree does not name Tests/\(folder.path)")
        }
    }
}
