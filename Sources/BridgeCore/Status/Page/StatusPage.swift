/// The daemon's read-only page (`GET /` on the status listener): each widget
/// drawn as phones show it, from the body the service last acknowledged, with
/// what the bridge believes and why, and the connections. Pure: the same
/// snapshot and clock give the same bytes. No press, no config, no secret:
/// it shows states, topics, bounded payload excerpts and the service's words,
/// every one of them escaped. The page polls `livePath` once a second and
/// replaces its `<main>` with the answer (`script`, served at `scriptPath`).
public enum StatusPage {
    public static let path = "/"
    public static let livePath = "/live"
    public static let scriptPath = "/page.js"
    public static let htmlContentType = "text/html; charset=utf-8"
    public static let scriptContentType = "text/javascript; charset=utf-8"
    /// Only the page's own script and requests; styles inline; nothing else.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; "
        + "img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    /// How often the page asks for `livePath`, milliseconds.
    public static let pollIntervalMs = 1_000

    /// The whole document for `snapshot` at the board's wall clock `nowMs`.
    public static func document(_ snapshot: BridgeSnapshot, nowMs: Int64) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>switchboard-bridge</title>
        <style>\(SwitchboardTileHTML.css)\(css)</style>
        <script src="\(scriptPath)" defer></script></head>
        <body><header><h1>switchboard-bridge</h1>
        <p>Read-only: each widget as phones show it (the content the service last acknowledged), and why each tile shows what it shows.</p>
        <p id="stale" role="status">Lost contact with the bridge; retrying.</p></header>
        <main id="live">\(live(snapshot, nowMs: nowMs))</main></body></html>

        """
    }

    /// What `<main>` holds: the connections, then each widget and its tiles' facts.
    public static func live(_ snapshot: BridgeSnapshot, nowMs: Int64) -> String {
        var html = StatusPageSections.connections(snapshot, nowMs: nowMs)
        for widget in snapshot.config.widgets {
            html += StatusPageSections.widget(widget, snapshot, nowMs: nowMs)
        }
        if snapshot.config.widgets.isEmpty { html += "<p class=\"note\">No widgets configured.</p>" }
        return html
    }

    /// Asks for `livePath` every second; replaces `<main>` when the answer
    /// changed; marks the page stale while the bridge does not answer.
    public static let script = """
    "use strict";
    (function () {
      var live = document.getElementById("live"), last = null;
      function poll() {
        fetch("\(livePath)", { cache: "no-store" }).then(function (answer) {
          if (!answer.ok) throw new Error("HTTP " + answer.status);
          return answer.text();
        }).then(function (html) {
          if (html !== last) { live.innerHTML = html; last = html; }
          document.body.classList.remove("stale");
        }).catch(function () { document.body.classList.add("stale"); })
          .then(function () { setTimeout(poll, \(pollIntervalMs)); });
      }
      setTimeout(poll, \(pollIntervalMs));
    })();

    """

    static let css = """
    body { margin:0; font:14px -apple-system, system-ui, sans-serif; background:#000; color:#f2f2f7; }
    header { padding:12px 16px; border-bottom:1px solid #333; }
    header h1 { font-size:18px; margin:0 0 4px; }
    header p { margin:0; color:#8e8e93; }
    #stale { display:none; color:#ff9f0a; font-weight:600; margin-top:4px; }
    body.stale #stale { display:block; }
    main { padding:12px 16px; max-width:760px; }
    h2 { font-size:13px; color:#8e8e93; font-weight:600; text-transform:uppercase; letter-spacing:.05em; margin:16px 0 8px; }
    h3 { font-size:14px; margin:0 0 4px; }
    dl { display:grid; grid-template-columns:max-content minmax(0, 1fr); gap:2px 10px; margin:0; }
    dt { color:#8e8e93; } dd { margin:0; min-width:0; overflow-wrap:anywhere; }
    code { font:12px ui-monospace, Menlo, monospace; overflow-wrap:anywhere; }
    .facts { list-style:none; padding:0; margin:12px 0 0; display:grid; gap:8px; }
    .facts li { background:#1c1c1e; border-radius:12px; padding:10px 12px; }
    .marker { color:#ff9f0a; margin:0 0 8px; }
    .warn { color:#ff9f0a; } .bad { color:#ff453a; } .good { color:#30d158; } .note { color:#8e8e93; }
    """
}
