import AiviSim
import BridgeCore
import Foundation
import Testing
import TestSupport

/// The status page in a real headless browser (Debian's chromium) against the
/// real daemon, a real mosquitto and the simulator: it draws every tile with
/// the published state, follows a device and a press within 2 s without a
/// reload, and says "never heard from" for a misspelled device. The screenshot
/// is kept under .build/test-artifacts.
@Suite("End to end: the status page in a real browser", .serialized)
struct StatusPageBrowserTests {
    static let liveUpdateBudgetMs: Int64 = 2_000

    static var canRun: Bool { HeadlessBrowser.isInCI || HeadlessBrowser.missingReason == nil }

    @Test(.enabled(if: canRun, "skipped: \(HeadlessBrowser.missingReason ?? "") (in CI, CI=true, it runs and fails instead)"))
    func thePageDrawsTheWidgetAndFollowsTheHouseLive() throws {
        if let missing = HeadlessBrowser.missingReason {
            Issue.record("CI=true but \(missing): .ci/run must install it")
            return
        }
        let world = try EndToEndHarness()
        defer { world.stopAll() }
        let port = try LoopbackPort.free()
        // A misspelled device: the broker has zigbee2mqtt/porch, the config says Porch.
        let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
            .replacingOccurrences(of: "state_dir:", with: "status: { listen: 127.0.0.1:\(port) }\nstate_dir:")
            .replacingOccurrences(of: "        tasmota: dead", with: """
                    tasmota: dead
                  - id: typo
                    label: Typo lamp
                    kind: toggle
                    zigbee2mqtt: Porch
            """)
        #expect(config.contains("zigbee2mqtt: Porch"))
        try config.write(toFile: world.configPath, atomically: true, encoding: .utf8)
        try world.startBridge()
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("porch") == false })

        let directory = try TemporaryDirectory(prefix: "browser")
        let headers = try Self.headers(of: "http://127.0.0.1:\(port)/", directory: directory.path)
        #expect(headers.contains("content-security-policy: default-src 'none'; script-src 'self';"), "\(headers)")
        #expect(headers.contains("content-type: text/html; charset=utf-8") && headers.contains("cache-control: no-store"))
        let browser = try HeadlessBrowser(url: "http://127.0.0.1:\(port)/", directory: directory.path)
        defer { browser.stop() }

        // Every tile, with the state the service holds.
        let expected = try Self.publishedStates(world)
        #expect(expected.components(separatedBy: "=").count == 6, "five tiles: \(expected)")
        _ = try browser.waitFor("\(Self.tileStatesExpression) === \(Self.jsString(expected))", timeoutMs: 20_000)
        _ = try browser.waitFor(Self.factsContain("typo", "never heard from"), timeoutMs: 5_000)

        // A device changes: the page follows without a reload.
        try Self.expectUpdate(browser, "porch", to: "On", within: Self.liveUpdateBudgetMs) {
            world.devices.publish("zigbee2mqtt/porch", #"{"state":"ON"}"#, retain: true)
        }
        // The facts name the last message heard (waited for, bounded). Another of the
        // tile's topics (its retained availability) may arrive after the ON and be the
        // last one heard, rightly: the same ON is sent again once a second, 5 times at most.
        var heardOn = false
        for _ in 0..<5 where !heardOn {
            heardOn = (try? browser.waitFor(Self.factsContain("porch", #"{"state":"ON"}"#), timeoutMs: 1_000)) != nil
            if !heardOn { world.devices.publish("zigbee2mqtt/porch", #"{"state":"ON"}"#, retain: true) }
        }
        #expect(heardOn, "porch facts: \((try? browser.evaluate(Self.factsText("porch"))) ?? "?")")

        // A press from a phone is carried out: the tile follows, the facts say how.
        try Self.expectUpdate(browser, "porch", to: "Off", within: Self.liveUpdateBudgetMs) {
            _ = try? world.press("porch")
        }
        _ = try browser.waitFor(Self.factsContain("porch", "asked off, confirmed by the device"), timeoutMs: 5_000)
        #expect(try browser.evaluate("document.querySelectorAll('script').length") == "1", "no script from a payload")

        let artifact = try Self.keepScreenshot(browser)
        print("status page screenshot: \(artifact)")
    }

    /// Causes a change once the browser is watching, and checks the page showed
    /// the tile's new state within `budgetMs` of the cause (on the same clock).
    static func expectUpdate(_ browser: HeadlessBrowser, _ action: String, to state: String, within budgetMs: Int64,
                             _ cause: () throws -> Void) throws {
        let wait = try browser.startWait(
            "document.querySelector('[data-slug=\"living-room\"] .tile[data-action=\"\(action)\"]').dataset.state === '\(state)'",
            timeoutMs: 10_000)
        #expect(waitUntil(timeoutSeconds: 30) { wait.isReady || !wait.process.isRunning })
        let causedAtMs = Int64(Date().timeIntervalSince1970 * 1_000)
        try cause()
        let shownAtMs = try wait.result(timeoutSeconds: 40).get()
        let elapsedMs = shownAtMs - causedAtMs
        print("status page: \(action) → \(state) shown \(elapsedMs) ms after the cause")
        #expect(elapsedMs <= budgetMs, "\(action) → \(state) took \(elapsedMs) ms")
    }

    static let tileStatesExpression = """
    JSON.stringify(Array.from(document.querySelectorAll('[data-slug="living-room"] .widget .tile')).map(t => t.dataset.action + '=' + t.dataset.state))
    """

    /// The response head of a GET, lower-cased, through the curl command line.
    static func headers(of url: String, directory: String) throws -> String {
        let curl = try ChildProcess(executable: "/usr/bin/curl", arguments: ["-s", "-D", "-", "-o", "/dev/null", url],
                                    directory: directory, name: "curl-head")
        guard curl.waitForExit(timeoutSeconds: 30) == 0 else { throw TestSupportError("curl failed: \(curl.stderr)") }
        return ((try? String(contentsOfFile: curl.stdoutPath, encoding: .utf8)) ?? "").lowercased()
    }

    static func factsText(_ action: String) -> String {
        "document.querySelector('[data-slug=\"living-room\"] li[data-action=\"\(action)\"]').textContent"
    }

    static func factsContain(_ action: String, _ text: String) -> String {
        "\(factsText(action)).includes(\(jsString(text)))"
    }

    /// What the simulator holds for the widget, as the page's tile list.
    static func publishedStates(_ world: EndToEndHarness) throws -> String {
        guard let content = world.simulator.content(slug: EndToEndHarness.widget) else { throw TestSupportError("nothing published") }
        let states = TileFace.resting(content: content).map { "\($0.id)=\($0.state.rawValue)" }
        return String(decoding: try JSONSerialization.data(withJSONObject: states), as: UTF8.self)
    }

    static func jsString(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
    }

    /// Keeps a PNG of the page at .build/test-artifacts/NAME.png; nothing may stick out sideways.
    static func keepScreenshot(_ browser: HeadlessBrowser, name: String = "status-page") throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        let artifacts = root + "/.build/test-artifacts"
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        let path = artifacts + "/\(name).png"
        let scrollWidth = try browser.screenshot(to: path)
        #expect(scrollWidth == 390, "on a phone-sized screen nothing sticks out sideways: \(scrollWidth) CSS pixels wide")
        #expect((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 > 1_000)
        return path
    }
}
