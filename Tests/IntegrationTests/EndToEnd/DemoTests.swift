import BridgeCore
import CurlShell
import Foundation
import Testing
import TestSupport

/// `switchboard-bridge demo`, the README's first command, as a newcomer runs it.
@Suite("The demo", .serialized)
struct DemoTests {
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }

    @Test func aPressOnThePageTurnsTheLightOnThroughEveryPiece() throws {
        let directory = try TemporaryDirectory(prefix: "demo")
        let port = LoopbackPort.free()
        let demo = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable,
            arguments: ["demo", "--port", String(port), "--config", Self.packageRoot + "/config/demo.yaml"],
            directory: directory.path, name: "demo", environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"])
        defer { demo.stop() }
        #expect(waitUntil(timeoutSeconds: 20) { demo.stdout.contains("http://127.0.0.1:\(port)/") || !demo.isRunning }, "\(demo.stderr)")
        let page = try HTTPGet.fetch("http://127.0.0.1:\(port)/")
        #expect(page.status == 200)
        #expect(page.body.contains("<script>") && !page.body.contains("https://"), "one page, nothing fetched from outside")
        #expect(waitUntil(timeoutSeconds: 10) { demo.stderr.contains("published demo") })
        let press = try HTTPPost.send("http://127.0.0.1:\(port)/api/press", body: #"{"action":"porch"}"#)
        #expect(press.contains(#""accepted":true"#))
        #expect(waitUntil(timeoutSeconds: 10) {
            let state = (try? HTTPGet.fetch("http://127.0.0.1:\(port)/api/state").body) ?? ""
            return state.contains(#""id":"porch","label":"Porch light","kind":"toggle","state":"On""#)
        })
        // The tiles come drawn by the one drawing the status page uses too (SwitchboardTileHTML).
        let state = (try? HTTPGet.fetch("http://127.0.0.1:\(port)/api/state").body) ?? ""
        #expect(state.contains(#"<button class=\"tile filled"#) && state.contains(#"data-action=\"porch\" data-state=\"On\""#),
                "\(state.prefix(2_000))")
        try Self.expectSceneGoesFromSentToActive(port: port, action: "movie")
        // Issue 21: Evening is made of the demo's tiles (the porch is on, the fountain turns on in 150 ms).
        try Self.expectSceneGoesFromSentToActive(port: port, action: "evening")
        #expect(demo.stderr.contains("demo/evening: tile 'fountain': command on sent"), "\(demo.stderr)")
        #expect(!demo.stderr.contains("demo/evening: tile 'porch': command"), "the porch was on already")
        demo.send(SIGINT)
        #expect(demo.waitForExit(timeoutSeconds: 15) == 0)
    }

    /// A scene's tile on the pressing phone: Sent, then Active, never idle between.
    static func expectSceneGoesFromSentToActive(port: Int, action: String) throws {
        let press = try HTTPPost.send("http://127.0.0.1:\(port)/api/press", body: #"{"action":"\#(action)"}"#)
        #expect(press.contains(#""accepted":true"#))
        var seen: [String] = []
        _ = waitUntil(timeoutSeconds: 10) {
            let body = (try? HTTPGet.fetch("http://127.0.0.1:\(port)/api/state").body) ?? ""
            guard let range = body.range(of: #""id":"\#(action)""#),
                  let stateRange = body[range.upperBound...].range(of: #""state":""#) else { return false }
            let state = String(body[stateRange.upperBound...].prefix { $0 != "\"" })
            if seen.last != state { seen.append(state) }
            return state == "Active"
        }
        // Before issue 13 the press was answered at once with active: false: Sent → Idle → Active (2 s later).
        #expect(seen.last == "Active" && !seen.contains("Idle"), "the \(action) tile went \(seen)")
        #expect(seen.allSatisfy { $0 == "Sent" || $0 == "Active" }, "the \(action) tile went \(seen)")
    }
}

enum HTTPPost {
    static func send(_ url: String, body: String) throws -> String {
        let client = try HTTPClient()
        defer { client.stop() }
        let box = Recorder<HTTPClientResult>()
        client.send(HTTPClientRequest(method: "POST", url: url, headers: [("Content-Type", "application/json")],
                                      body: Array(body.utf8))) { box.append($0) }
        guard waitUntil(timeoutSeconds: 10, { !box.values.isEmpty }), case .response(let response)? = box.values.first else {
            throw TestSupportError("no answer from \(url)")
        }
        return String(decoding: response.body, as: UTF8.self)
    }
}
