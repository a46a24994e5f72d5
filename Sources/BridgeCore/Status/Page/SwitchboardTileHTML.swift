/// The one place that draws Switchboard tiles the way the phone does (the
/// guide's table: Off, Idle, On/Active, Turning on, Turning off, No response,
/// Sent), as HTML and CSS with nothing fetched from outside. The demo page and
/// the daemon's status page both use it. Every text is escaped; a color is
/// used only when it is a known name, `#RGB`/`#RRGGBB` or a plain word.
public enum SwitchboardTileHTML {
    /// Where a widget is drawn: the phone's medium (3 columns) or small (2) size.
    public enum Size: String, Sendable {
        case medium
        case small
    }

    /// The app's named colors.
    static let namedColors: [String: String] = [
        "yellow": "#ffd60a", "cyan": "#64d2ff", "orange": "#ff9f0a", "red": "#ff453a", "purple": "#bf5af2",
        "green": "#30d158", "blue": "#0a84ff", "teal": "#40c8e0", "pink": "#ff375f",
    ]
    static let defaultColor = "#0a84ff"

    /// The tiles' style sheet (custom properties, widget grid, tile states).
    public static let css = """
    .widget { --bg:#1c1c1e; --tile:#2c2c2e; --muted:#8e8e93; --text:#f2f2f7; --orange:#ff9f0a;
              background:var(--bg); border-radius:22px; padding:12px; display:grid; gap:8px; }
    .widget.medium { width:100%; max-width:340px; grid-template-columns:repeat(3, minmax(0, 1fr)); }
    .widget.small { width:170px; padding:8px; gap:6px; grid-template-columns:repeat(2, minmax(0, 1fr)); }
    .tile { position:relative; border:0; border-radius:14px; padding:10px; min-height:74px; text-align:left;
            background:var(--tile); color:var(--text); overflow:hidden; font:inherit; display:block; }
    button.tile { cursor:pointer; }
    .small .tile { min-height:62px; padding:7px; }
    .tile .mark { display:block; height:22px; line-height:0; }
    .tile .mark svg { width:22px; height:22px; }
    .tile .label { display:-webkit-box; -webkit-box-orient:vertical; -webkit-line-clamp:2; line-clamp:2; overflow:hidden;
                   overflow-wrap:anywhere; font-weight:600; margin-top:6px; line-height:1.25em; height:2.5em; }
    .tile .second { display:block; color:var(--muted); font-size:12px; margin-top:2px; line-height:1.25em; height:1.25em;
                    white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
    .small .tile .label { font-size:11px; }
    .small .tile .second { display:none; }
    .tile.muted .mark { filter:grayscale(1); opacity:.45; }
    .tile.filled { background:var(--fill); }
    .tile.filled.pale { color:#1c1c1e; }
    .tile.filled.pale .second { color:rgba(0,0,0,.6); }
    .tile.filled:not(.pale) .second { color:rgba(255,255,255,.8); }
    .tile.wash::before { content:""; position:absolute; inset:0; background:var(--fill); opacity:.22; }
    .tile.fading { background:color-mix(in srgb, var(--fill) 35%, var(--tile)); }
    .tile.fading .mark { filter:grayscale(.8); opacity:.6; }
    .tile .check { position:absolute; top:8px; right:10px; font-size:14px; }
    .tile .second.warn { color:var(--orange); }
    .tile > * { position:relative; }
    .tile .note-mark { position:absolute; top:8px; right:10px; color:var(--orange); font-weight:700; }
    ul.why { list-style:none; margin:8px 0 0; padding:0; max-width:340px; font-size:12px; color:var(--muted, #8e8e93); }
    ul.why li { margin:4px 0; padding-left:14px; position:relative; overflow-wrap:anywhere; }
    ul.why li::before { content:"!"; position:absolute; left:2px; color:var(--orange, #ff9f0a); font-weight:700; }
    ul.why .who { color:var(--text, #f2f2f7); font-weight:600; }
    """

    /// A widget of `faces`; tiles are buttons (with `data-action`) when
    /// `isPressable`, plain boxes otherwise (the read-only status page).
    public static func widget(_ faces: [TileFace], size: Size, isPressable: Bool) -> String {
        var html = "<div class=\"widget \(size.rawValue)\">"
        for face in faces { html += tile(face, isPressable: isPressable) }
        return html + "</div>"
    }

    /// Why tiles did nothing (or would not): one line per face with a note, its
    /// label first, to go right under the widget; empty when no face has one.
    public static func notes(_ faces: [TileFace]) -> String {
        let noted = faces.filter { $0.note != nil }
        guard !noted.isEmpty else { return "" }
        var html = "<ul class=\"why\">"
        for face in noted {
            html += "<li data-action=\"\(HTMLText.escape(face.id))\"><span class=\"who\">\(HTMLText.escape(face.label))</span>: "
                + HTMLText.excerpt(face.note ?? "", maxScalars: 300) + "</li>"
        }
        return html + "</ul>"
    }

    /// One tile: its mark, label and second line, classed by its state.
    public static func tile(_ face: TileFace, isPressable: Bool) -> String {
        let fill = fillColor(face.color)
        var classes = ["tile"]
        var second = face.stateWord
        var isWarning = false
        var hasCheck = false
        let filled = ["filled"] + (isPale(fill) ? ["pale"] : [])
        switch face.state {
        case .on, .active: classes += filled
        case .off: classes.append("muted")
        case .idle: second = face.subtitle ?? ""
        case .turningOn: classes.append("wash")
        case .turningOff: classes.append("fading")
        case .noResponse:
            if face.isShownOn { classes += filled } else if face.isToggle { classes.append("muted") }
            isWarning = true
        case .sent:
            classes.append("wash")
            hasCheck = true
        }
        let element = isPressable ? "button" : "div"
        let label = HTMLText.escape(face.label)
        var html = "<\(element) class=\"\(classes.joined(separator: " "))\" style=\"--fill:\(fill)\""
        html += " data-action=\"\(HTMLText.escape(face.id))\" data-state=\"\(face.state.rawValue)\""
        html += " aria-label=\"\(label), \(HTMLText.escape(face.stateWord))\">"
        if hasCheck { html += "<span class=\"check\">✓</span>" } else if face.note != nil { html += "<span class=\"note-mark\">!</span>" }
        html += "<span class=\"mark\">\(TileIcon.svg(face.icon, isShownOn: face.isShownOn))</span>"
        html += "<span class=\"label\">\(label)</span>"
        html += "<span class=\"second\(isWarning ? " warn" : "")\">\(HTMLText.escape(second))</span>"
        return html + "</\(element)>"
    }

    /// The color a tile fills with: a named color's value, a `#RGB`/`#RRGGBB`
    /// given as is, a plain word (a CSS color name), or the default blue.
    static func fillColor(_ color: String?) -> String {
        let name = color ?? "blue"
        if let known = namedColors[name] { return known }
        let scalars = name.unicodeScalars
        if scalars.first == "#", [4, 7].contains(scalars.count), scalars.dropFirst().allSatisfy(\.properties.isASCIIHexDigit) {
            return name
        }
        let isWord = !scalars.isEmpty && scalars.count <= 32
            && scalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }
        return isWord ? name : defaultColor
    }

    /// Whether a `#RRGGBB` color is light enough to need dark text on it.
    static func isPale(_ color: String) -> Bool {
        let digits = Array(color.unicodeScalars.dropFirst())
        guard color.hasPrefix("#"), digits.count == 6 else { return false }
        let channels = stride(from: 0, to: 6, by: 2).compactMap { index in
            Int(String(String.UnicodeScalarView(digits[index..<index + 2])), radix: 16)
        }
        guard channels.count == 3 else { return false }
        return 0.299 * Double(channels[0]) + 0.587 * Double(channels[1]) + 0.114 * Double(channels[2]) > 160
    }
}
