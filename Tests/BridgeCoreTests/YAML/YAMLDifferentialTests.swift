import Foundation
import Testing
@testable import BridgeCore

/// The YAML subset must agree with a real YAML parser (PyYAML's `safe_load`)
/// on every document inside the subset: the example config and a few hundred
/// generated documents.
@Suite struct YAMLDifferentialTests {
    @Test func agreesWithPyYAML() throws {
        let python = try #require(PyYAMLRunner.findPython(), "no python3 with PyYAML (apt-get install python3-yaml)")
        var documents: [(name: String, text: String)] = []
        let example = try String(contentsOf: YAMLTestFiles.exampleConfigURL, encoding: .utf8)
        documents.append(("config/bridge.example.yaml", example))
        for (index, text) in Self.handWritten.enumerated() { documents.append(("hand-written #\(index)", text)) }
        var generator = YAMLDocumentGenerator(seed: 0x5EED_2026)
        for index in 0..<400 { documents.append(("generated #\(index)", generator.document())) }

        let answers = try PyYAMLRunner.load(documents.map(\.text), python: python)
        try #require(answers.count == documents.count)
        for (document, answer) in zip(documents, answers) {
            let ours = YAMLParser.parse(document.text)
            let theirs = try? JSONValue.parse(answer)
            #expect(ours.errors.isEmpty, "\(document.name): \(ours.errors)\n\(document.text)")
            #expect(theirs != nil, "\(document.name): PyYAML said \(answer)\n\(document.text)")
            guard let root = ours.root, let theirs else { continue }
            let agrees = Self.same(root.jsonValue, theirs)
            #expect(agrees, "\(document.name) differs\n\(document.text)\nours:   \(root.jsonValue.serialized())\nPyYAML: \(answer)")
        }
    }

    /// Malformed documents: both parsers must refuse them.
    static let malformed = [
        "- >-\n   more\n  less\n", "a: b: c\n", "a: [1, 2\n", "a: 'x\n", "- a\nb: 1\n", "a: 1\n  b: 2\n",
        "a: \"\\q\"\n", "a:\n\tb: 1\n", "a: &x [1\n",
    ]

    @Test func refusesWhatPyYAMLRefuses() throws {
        let python = try #require(PyYAMLRunner.findPython(), "no python3 with PyYAML (apt-get install python3-yaml)")
        let answers = try PyYAMLRunner.load(Self.malformed, python: python)
        for (text, answer) in zip(Self.malformed, answers) {
            #expect(answer.hasPrefix("ERROR"), "PyYAML accepted \(text)")
            #expect(YAMLParser.parse(text).root == nil, "we accepted \(text)")
        }
    }

    /// Corner cases of the subset, written by hand.
    static let handWritten = [
        "a:\n- 1\n- 2\nb:\n  - x: 1\n    y: [a, {b: c}]\n",
        "- |+\n  keep\n\n\n- |-\n  strip\n\n- >\n  a\n  b\n\n  c\n     d\n  e\n",
        "a: >+\n  x\n\n",
        "a: |\n  x\n  y",
        "a: |\n\n  after empty\n",
        "a: |1\n  one more space\n",
        "- >-\n  less\n   more\n  less\n",
        "a: \"\\t\\x7e\\u263A\\\\\\\"\"\nb: 'it''s # here'\nc: x # y\n",
        "key: 'a: b'\n",
        "\"quoted key\": 1\n'single key': 2\nplain key: 3\n",
        "a: [ ]\nb: { }\nc: [[], {}]\n",
        "a:    spaced   \nb:\n\n\n  late: 1\n",
        "-   a\n-     b: 1\n      c: 2\n",
        "url: http://example.org/a?b=c#d\ntime: '12:30'\n",
        "a: -1.5\nb: +2\nc: 0.0\nd: -0\ne: 1.0e+3\n",
        "empty_quoted: ''\nempty_double: \"\"\nnull_value: ~\n",
        "\u{FEFF}bom: true\r\ncrlf: [1, 2]\r\n",
        "- - - deep\n    - er\n  - x\n",
        "a: {x: [1, 2], \"y\": 'z'}\n",
    ]

    /// Equal JSON, with integral doubles equal to the same integers (Python
    /// prints `1.0` where we keep a double).
    static func same(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.double(let a), .int(let b)), (.int(let b), .double(let a)): return a == Double(b)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
        default: return lhs == rhs
        }
    }
}

enum YAMLTestFiles {
    /// `config/bridge.example.yaml` of this package.
    static var exampleConfigURL: URL {
        URL(fileURLWithPath: #filePath)  // Tests/BridgeCoreTests/YAML/
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("config/bridge.example.yaml")
    }
}

/// Runs `yaml.safe_load` -> `json.dumps` on documents written to a temp dir.
enum PyYAMLRunner {
    static func findPython() -> String? {
        for candidate in ["/usr/bin/env python3", "/usr/bin/python3"] {
            let parts = candidate.split(separator: " ").map(String.init)
            if let output = try? run(parts[0], Array(parts.dropFirst()) + ["-c", "import yaml; print('ok')"]),
               output.trimmingCharacters(in: .whitespacesAndNewlines) == "ok" {
                return candidate
            }
        }
        return nil
    }

    /// One JSON text (or `ERROR ...`) per document.
    static func load(_ documents: [String], python: String) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("yaml-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (index, document) in documents.enumerated() {
            let url = directory.appendingPathComponent("doc\(index).yaml")
            try Data(document.utf8).write(to: url)
            paths.append(url.path)
        }
        let listURL = directory.appendingPathComponent("list.txt")
        try Data(paths.joined(separator: "\n").utf8).write(to: listURL)
        let script = """
        import sys, json, yaml
        for path in open(sys.argv[1]).read().split("\\n"):
            try:
                with open(path, encoding="utf-8") as f:
                    print(json.dumps(yaml.safe_load(f)))
            except Exception as e:
                print("ERROR " + repr(e).replace("\\n", " "))
        """
        let parts = python.split(separator: " ").map(String.init)
        let output = try run(parts[0], Array(parts.dropFirst()) + ["-c", script, listURL.path])
        return output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
