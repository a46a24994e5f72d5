import BridgeCore

/// The demo's web page: the Switchboard as the phone draws it, small and
/// medium sizes, for two phones, with a live log. The tiles come drawn from
/// the server (`SwitchboardTileHTML`, the drawing the status page shares);
/// the page's JavaScript only polls, swaps them in and sends presses.
/// Plain HTML, CSS and a little JavaScript; nothing fetched from outside.
enum DemoPage {
    static let html = #"""
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>switchboard-bridge demo</title>
    <style>
    :root { --muted:#8e8e93; --text:#f2f2f7; --orange:#ff9f0a; }
    * { box-sizing: border-box; }
    body { margin:0; font:14px -apple-system, system-ui, sans-serif; background:#000; color:var(--text); }
    header { padding:16px 24px; border-bottom:1px solid #333; }
    header h1 { font-size:18px; margin:0 0 4px; }
    header p { margin:0; color:var(--muted); }
    main { display:flex; gap:32px; padding:24px; flex-wrap:wrap; }
    .phone h2 { font-size:13px; color:var(--muted); font-weight:600; margin:0 0 8px; text-transform:uppercase; letter-spacing:.05em; }
    .phone { width:340px; max-width:100%; }
    \#(SwitchboardTileHTML.css)
    section.log { flex:1; min-width:300px; }
    section.log h2 { font-size:13px; color:var(--muted); text-transform:uppercase; margin:0 0 8px; }
    #log { background:#111; border-radius:12px; padding:12px; height:460px; overflow:auto;
           font:12px ui-monospace, Menlo, monospace; white-space:pre-wrap; }
    #log .press { color:#64d2ff; } #log .device { color:#ffd60a; } #log .publish { color:#30d158; } #log .warn { color:var(--orange); }
    .note { color:var(--muted); font-size:12px; margin-top:8px; max-width:340px; }
    </style></head>
    <body>
    <header><h1>switchboard-bridge demo</h1>
    <p>Press a tile: it goes through the simulated Aivi service (rate limits, event stream) to the bridge, which drives a virtual MQTT device and publishes the true state back.</p></header>
    <main>
      <div class="phone"><h2>Your phone · medium</h2><div id="medium"></div>
        <h2 style="margin-top:16px">Your phone · small</h2><div id="small"></div>
        <p class="note">Porch light echoes after 350 ms, Fountain after 150 ms. Garage light is offline; Heater never answers (the bridge publishes its true state after 5 s, before the phone's 15 s): the bridge says why under the widget. Side garage is a pulsed relay with a contact sensor: closing, it shows Closing until the sensor says closed, never Open again (not pulsed in its first 12 s: a pulse before a restart may still move it).</p></div>
      <div class="phone"><h2>Kitchen iPad · medium (updates at most every 2 s)</h2><div id="other"></div></div>
      <section class="log"><h2>What happened</h2><div id="log"></div></section>
    </main>
    <script>
    let lastLog = 0;
    const drawn = {};
    function press(action, phone) {
      fetch("/api/press", {method:"POST", headers:{"Content-Type":"application/json"},
        body: JSON.stringify({action: action, phone: phone})}).then(r => r.json()).then(o => { if (!o.accepted) logLine("refused: " + o.refusal, "warn"); refresh(); });
    }
    for (const [id, phone] of [["medium", "mine"], ["small", "mine"], ["other", "other"]]) {
      document.getElementById(id).addEventListener("click", event => {
        const tile = event.target.closest("button[data-action]"); if (tile) press(tile.dataset.action, phone);
      });
    }
    function draw(id, html) {
      if (drawn[id] !== html) { document.getElementById(id).innerHTML = html; drawn[id] = html; }
    }
    function logLine(text, cls, seq) {
      const box = document.getElementById("log"); const line = document.createElement("div");
      line.textContent = text; if (cls) line.className = cls; if (seq) line.dataset.seq = seq; box.appendChild(line);
      while (box.childNodes.length > 400) box.removeChild(box.firstChild);
      box.scrollTop = box.scrollHeight;
    }
    function classify(text) {
      const level = text.split(" ", 2)[1];
      if (level === "warning" || level === "error" || /^refused: /.test(text)) return "warn";
      if (/ press | command /.test(text)) return "press";
      if (/^device |scene controller|mqtt zigbee2mqtt|mqtt stat\//.test(text.replace(/^\S+ \S+ /, ""))) return "device";
      if (/published|PATCH/.test(text)) return "publish";
      return "";
    }
    async function refresh() {
      try {
        const state = await (await fetch("/api/state?after=" + lastLog)).json();
        draw("medium", state.html.medium); draw("small", state.html.small); draw("other", state.html.other);
        // Two polls in flight (a press refreshes too) bring the same lines: each is shown once.
        for (const line of state.log) {
          if (line.seq <= lastLog) continue;
          logLine(line.text, classify(line.text), line.seq); lastLog = line.seq;
        }
      } catch (e) { logLine("demo stopped? " + e, "warn"); }
    }
    refresh(); setInterval(refresh, 250);
    </script></body></html>
    """#
}
