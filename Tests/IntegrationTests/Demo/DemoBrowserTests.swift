import Foundation
import Testing
import TestSupport

/// Issue 22 item 13, the demo page in a real browser (Debian chromium over DevTools,
/// the status page's harness): labels are not cut ("Porch li..."), a tile keeps its
/// height whatever its second line says (a subtitle, Sent), every icon is drawn as an
/// SVG (no emoji font: they were boxes), a warning in the log is not coloured like a
/// press, and two polls in flight show each log line once.
@Suite("The demo page in a real browser", .serialized)
struct DemoBrowserTests {
    @Test(.enabled(if: StatusPageBrowserTests.canRun, "skipped: \(HeadlessBrowser.missingReason ?? "")"))
    func thePageDrawsWholeLabelsSteadyTilesAndEachLogLineOnce() throws {
        if let missing = HeadlessBrowser.missingReason {
            Issue.record("CI=true but \(missing): .ci/run must install it")
            return
        }
        let directory = try TemporaryDirectory(prefix: "demo-browser")
        defer { directory.remove() }
        let port = try LoopbackPort.free()
        let demo = try DemoExitTests.demo(["--port", String(port)], in: directory, name: "demo")
        defer { demo.stop() }
        #expect(waitUntil(timeoutSeconds: 20) { demo.stdout.contains("http://127.0.0.1:\(port)/") || !demo.isRunning }, "\(demo.stderr)")
        let browser = try HeadlessBrowser(url: "http://127.0.0.1:\(port)/", directory: directory.path)
        defer { browser.stop() }
        _ = try browser.waitFor("document.querySelectorAll('#medium .tile').length >= 6 && document.querySelectorAll('#log div').length > 3",
                                timeoutMs: 20_000)

        // Whole labels: nothing clipped sideways or below, in both sizes.
        let cut = try browser.evaluate("""
        JSON.stringify(Array.from(document.querySelectorAll('#medium .tile .label, #small .tile .label'))
          .filter(l => l.scrollWidth > l.clientWidth + 1 || l.scrollHeight > l.clientHeight + 1).map(l => l.textContent))
        """)
        #expect(cut == "[]", "labels cut: \(cut)")
        // ... and no word broken in two ("Fountai|n" in the small size): a label has no more lines than words.
        let broken = try browser.evaluate("""
        JSON.stringify(Array.from(document.querySelectorAll('#medium .tile .label, #small .tile .label')).filter(l => {
          const range = document.createRange(); range.selectNodeContents(l);
          const lines = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top))).size;
          return lines > l.textContent.trim().split(/\\s+/).length; }).map(l => l.textContent))
        """)
        #expect(broken == "[]", "words broken: \(broken)")
        #expect(try browser.evaluate("document.querySelector('#medium .tile[data-action=\"porch\"] .label').textContent") == "Porch light")

        // Icons: an SVG in every mark, drawn (not empty), no glyph.
        let marks = try browser.evaluate("""
        JSON.stringify(Array.from(document.querySelectorAll('#medium .tile .mark')).map(m => {
          const svg = m.querySelector('svg'); const box = svg ? svg.getBoundingClientRect() : {width: 0};
          return (svg && svg.children.length > 0 && box.width >= 16 && m.textContent.trim() === '') ? 'ok' : m.outerHTML; }))
        """)
        #expect(!marks.isEmpty && marks.replacingOccurrences(of: "\"ok\"", with: "").replacingOccurrences(of: ",", with: "") == "[]", "\(marks)")

        // The same height with a long subtitle as with Sent (measured in one go, between polls).
        let heights = try browser.evaluate("""
        (() => { const w = document.querySelector('#medium .widget'); const s = w.querySelector('.tile .second');
          s.textContent = 'A long subtitle that the phone would wrap over two or three lines'; const a = w.getBoundingClientRect().height;
          s.textContent = 'Sent'; const b = w.getBoundingClientRect().height; return a + '/' + b; })()
        """)
        let parts = heights.split(separator: "/")
        #expect(parts.count == 2 && parts[0] == parts[1], "widget height changed: \(heights)")

        // A warning is coloured as a warning, a press as a press.
        #expect(try browser.evaluate("classify('2026-12-01T14:00:00.000Z warning action porch: press refused, command not sent')") == "warn")
        #expect(try browser.evaluate("classify('2026-12-01T14:00:00.000Z info press porch from phone mine')") == "press")

        // Two polls in flight bring the same lines: each is shown once.
        _ = try browser.evaluate("window.polled = 0; document.getElementById('log').innerHTML = ''; lastLog = 0; Promise.all([refresh(), refresh(), refresh()]).then(() => window.polled = 1); 'started'")
        _ = try browser.waitFor("window.polled === 1", timeoutMs: 10_000)
        let twice = try browser.evaluate("""
        (() => { const seqs = Array.from(document.querySelectorAll('#log div[data-seq]')).map(d => d.dataset.seq);
          const seen = new Set(); let twice = 0; for (const s of seqs) { if (seen.has(s)) twice++; seen.add(s); }
          return seqs.length > 3 ? String(twice) : 'only ' + seqs.length + ' lines'; })()
        """)
        #expect(twice == "0", "log lines shown twice: \(twice)")
        print("demo page screenshot: \(try StatusPageBrowserTests.keepScreenshot(browser, name: "demo-page"))")
    }
}
