/// The demo's web page: draws the Switchboard the way the phone does (the
/// guide's table), small and medium sizes, for two phones, with a live log.
/// Plain HTML, CSS and a little JavaScript; nothing fetched from outside.
enum DemoPage {
    static let html = #"""
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>switchboard-bridge demo</title>
    <style>
    :root { --bg:#1c1c1e; --tile:#2c2c2e; --muted:#8e8e93; --text:#f2f2f7; --orange:#ff9f0a; }
    * { box-sizing: border-box; }
    body { margin:0; font:14px -apple-system, system-ui, sans-serif; background:#000; color:var(--text); }
    header { padding:16px 24px; border-bottom:1px solid #333; }
    header h1 { font-size:18px; margin:0 0 4px; }
    header p { margin:0; color:var(--muted); }
    main { display:flex; gap:32px; padding:24px; flex-wrap:wrap; }
    .phone h2 { font-size:13px; color:var(--muted); font-weight:600; margin:0 0 8px; text-transform:uppercase; letter-spacing:.05em; }
    .widget { background:var(--bg); border-radius:22px; padding:12px; display:grid; gap:8px; }
    .medium { width:340px; grid-template-columns:repeat(3, 1fr); }
    .small { width:160px; grid-template-columns:repeat(2, 1fr); }
    .tile { position:relative; border:0; border-radius:14px; padding:10px; min-height:74px; text-align:left;
            background:var(--tile); color:var(--text); cursor:pointer; overflow:hidden; font:inherit;
            transition:background .25s, color .25s; }
    .small .tile { min-height:62px; padding:8px; }
    .tile .mark { font-size:22px; display:block; filter:none; transition:filter .25s, opacity .25s; }
    .tile .label { display:block; font-weight:600; margin-top:6px; white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
    .tile .second { display:block; color:var(--muted); font-size:12px; margin-top:2px; }
    .small .tile .label { font-size:11px; }
    .small .tile .second { display:none; }
    .tile.muted .mark { filter:grayscale(1); opacity:.45; }
    .tile.filled { background:var(--fill); }
    .tile.filled .mark { text-shadow:0 2px 6px rgba(0,0,0,.35); }
    .tile.filled.pale { color:#1c1c1e; }
    .tile.filled.pale .second { color:rgba(0,0,0,.6); }
    .tile.filled:not(.pale) .second { color:rgba(255,255,255,.8); }
    .tile.wash::before { content:""; position:absolute; inset:0; background:var(--fill); opacity:.22; }
    .tile.fading { background:color-mix(in srgb, var(--fill) 35%, var(--tile)); }
    .tile.fading .mark { filter:grayscale(.8); opacity:.6; }
    .tile .check { position:absolute; top:8px; right:10px; font-size:14px; }
    .tile .second.warn { color:var(--orange); }
    .tile > * { position:relative; }
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
      <div class="phone"><h2>Your phone · medium</h2><div id="medium" class="widget medium"></div>
        <h2 style="margin-top:16px">Your phone · small</h2><div id="small" class="widget small"></div>
        <p class="note">Porch light echoes after 350 ms, Fountain after 150 ms. Garage light is offline; Heater never answers (the bridge publishes its true state after 5 s, before the phone's 15 s).</p></div>
      <div class="phone"><h2>Kitchen iPad · medium (updates at most every 2 s)</h2><div id="other" class="widget medium"></div></div>
      <section class="log"><h2>What happened</h2><div id="log"></div></section>
    </main>
    <script>
    const ICONS = {"lightbulb.fill":"💡","drop.fill":"💧","car.fill":"🚗","flame.fill":"🔥","tv.fill":"📺","sunset.fill":"🌅","power":"⏻","pawprint.fill":"🐾","fan.fill":"🌀"};
    const COLORS = {yellow:"#ffd60a",cyan:"#64d2ff",orange:"#ff9f0a",red:"#ff453a",purple:"#bf5af2",green:"#30d158",blue:"#0a84ff",teal:"#40c8e0",pink:"#ff375f"};
    let lastLog = 0;
    function colorOf(tile) { const c = tile.color || "blue"; return COLORS[c] || c; }
    function isPale(hex) {
      const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex); if (!m) return false;
      const [r,g,b] = m.slice(1).map(x => parseInt(x,16)); return (0.299*r + 0.587*g + 0.114*b) > 160;
    }
    function drawTile(tile, phone) {
      const el = document.createElement("button");
      el.className = "tile"; el.style.setProperty("--fill", colorOf(tile));
      const mark = document.createElement("span"); mark.className = "mark"; mark.textContent = ICONS[tile.icon] || "◼︎";
      const label = document.createElement("span"); label.className = "label"; label.textContent = tile.label;
      const second = document.createElement("span"); second.className = "second";
      const filled = () => { el.classList.add("filled"); if (isPale(colorOf(tile))) el.classList.add("pale"); };
      switch (tile.state) {
        case "On": case "Active": filled(); second.textContent = tile.state; break;
        case "Off": el.classList.add("muted"); second.textContent = "Off"; break;
        case "Idle": second.textContent = tile.subtitle || ""; break;
        case "Turning on": el.classList.add("wash"); second.textContent = "Turning on"; break;
        case "Turning off": el.classList.add("fading"); second.textContent = "Turning off"; break;
        case "No response":
          if (tile.on) filled(); else if (tile.kind === "toggle") el.classList.add("muted");
          second.textContent = "No response"; second.classList.add("warn"); break;
        case "Sent": el.classList.add("wash"); second.textContent = "Sent";
          const check = document.createElement("span"); check.className = "check"; check.textContent = "✓"; el.appendChild(check); break;
      }
      el.setAttribute("aria-label", tile.label + ", " + tile.state);
      el.append(mark, label, second);
      el.onclick = () => fetch("/api/press", {method:"POST", headers:{"Content-Type":"application/json"},
        body: JSON.stringify({action: tile.id, phone: phone})}).then(r => r.json()).then(o => { if (!o.accepted) logLine("refused: " + o.refusal, "warn"); refresh(); });
      return el;
    }
    function draw(id, tiles, phone) {
      const box = document.getElementById(id); box.replaceChildren(...tiles.map(t => drawTile(t, phone)));
    }
    function logLine(text, cls) {
      const box = document.getElementById("log"); const line = document.createElement("div");
      line.textContent = text; if (cls) line.className = cls; box.appendChild(line);
      while (box.childNodes.length > 400) box.removeChild(box.firstChild);
      box.scrollTop = box.scrollHeight;
    }
    function classify(text) {
      if (/ press | command /.test(text)) return "press";
      if (/^device |scene controller|mqtt zigbee2mqtt|mqtt stat\//.test(text.replace(/^\S+ \S+ /, ""))) return "device";
      if (/published|PATCH/.test(text)) return "publish";
      if (/warning|error/.test(text)) return "warn";
      return "";
    }
    async function refresh() {
      try {
        const state = await (await fetch("/api/state?after=" + lastLog)).json();
        draw("medium", state.mine, "mine"); draw("small", state.mine, "mine"); draw("other", state.other, "other");
        for (const line of state.log) { logLine(line.text, classify(line.text)); lastLog = line.seq; }
      } catch (e) { logLine("demo stopped? " + e, "warn"); }
    }
    refresh(); setInterval(refresh, 250);
    </script></body></html>
    """#
}
