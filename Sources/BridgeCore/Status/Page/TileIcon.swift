/// The tiles' icons, drawn as inline SVG in the tile's text colour: nothing to fetch
/// and no emoji font needed (on a board or a desktop without one, emoji were boxes).
/// An SF Symbol name is matched by its family (`lightbulb.fill`, `lightbulb.led` and
/// `lamp.desk.fill` are a bulb); a name of no known family gets a plain rounded square.
enum TileIcon {
    /// Symbol-name prefixes and the drawing each family shares, in the order tried.
    static let families: [(prefixes: [String], shape: String)] = [
        (["lightbulb", "lamp", "light."], "<path d=\"M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2zM9 18.5h6V20H9zM10 21h4v1h-4z\"/>"),
        (["powerplug", "poweroutlet"], "<path d=\"M8 2h2v5h4V2h2v5h2v5a6 6 0 0 1-5 5.9V22h-2v-4.1A6 6 0 0 1 6 12V7h2z\"/>"),
        (["power"], "<path d=\"M11 2h2v10h-2z\"/><path d=\"M6.3 5.3l1.4 1.4a7 7 0 1 0 8.6 0l1.4-1.4A9 9 0 1 1 6.3 5.3z\"/>"),
        (["drop", "sprinkler", "humidity", "shower"], "<path d=\"M12 2C9 7 6 10.5 6 14a6 6 0 0 0 12 0c0-3.5-3-7-6-12z\"/>"),
        (["flame", "heater", "fireplace"], "<path d=\"M12 2c1 4 6 6 6 12a6 6 0 0 1-12 0c0-3 2-5 3-7 1 2 2 3 3 3 1-3 1-5 0-8z\"/>"),
        (["fan"], "<circle cx=\"12\" cy=\"12\" r=\"2\"/><path d=\"M12 10c-3-1-4-4-3-6s5-1 5 2-1 3-2 4zm2 2c1-3 4-4 6-3s1 5-2 5-3-1-4-2zm-2 2c3 1 4 4 3 6s-5 1-5-2 1-3 2-4zm-2-2c-1 3-4 4-6 3s-1-5 2-5 3 1 4 2z\"/>"),
        (["tv", "display", "sparkles.tv"], "<path d=\"M3 5h18v12H3zm2 2v8h14V7zM8 19h8v2H8z\"/>"),
        (["car"], "<path d=\"M5 11l2-5h10l2 5h1v6h-2v2h-3v-2H9v2H6v-2H4v-6zm3 0h8l-1-3H9zM7 13v2h2v-2zm8 0v2h2v-2z\"/>"),
        (["sunset", "sunrise", "sun"], "<circle cx=\"12\" cy=\"12\" r=\"4\"/><path d=\"M11 1h2v3h-2zm0 19h2v3h-2zM1 11h3v2H1zm19 0h3v2h-3zM4.2 5.6l1.4-1.4 2.1 2.1-1.4 1.4zm12.1 12.1 1.4-1.4 2.1 2.1-1.4 1.4zM4.2 18.4l2.1-2.1 1.4 1.4-2.1 2.1zM16.3 6.3l2.1-2.1 1.4 1.4-2.1 2.1z\"/>"),
        (["pawprint"], "<ellipse cx=\"12\" cy=\"16\" rx=\"5\" ry=\"4\"/><circle cx=\"6\" cy=\"10\" r=\"2\"/><circle cx=\"10\" cy=\"6\" r=\"2\"/><circle cx=\"14\" cy=\"6\" r=\"2\"/><circle cx=\"18\" cy=\"10\" r=\"2\"/>"),
        (["lock"], "<path d=\"M7 10V7a5 5 0 0 1 10 0v3h1v11H6V10zm2 0h6V7a3 3 0 0 0-6 0z\"/>"),
        (["door.garage", "garage"], "<path d=\"M3 10l9-7 9 7v11h-2V11H5v10H3zm4 3h10v2H7zm0 4h10v2H7z\"/>"),
        (["blinds", "curtains", "window"], "<path d=\"M4 3h16v2H4zm1 4h14v2H5zm0 4h14v2H5zm0 4h14v2H5zm6 4h2v3h-2z\"/>"),
        (["door"], "<path d=\"M6 2h12v20H6zm2 2v16h8V4zm5 7h2v2h-2z\"/>"),
        (["stairs"], "<path d=\"M3 21v-4h4v-4h4V9h4V5h6v16z\"/>"),
        (["figure", "person"], "<circle cx=\"14\" cy=\"4\" r=\"2.2\"/><path d=\"M12.5 7.2l3 .8 1.5 3.6 2.5 1-.7 1.8-3.2-1.3-.7-1.5-.9 3.8 2.5 2.6V23h-2v-4.2l-2.6-2.4-1.3 6.6H8.5l1.9-9.8-1.9 1V17h-2v-4l4-2.6z\"/>"),
        (["moon"], "<path d=\"M15 2a10 10 0 1 0 7 15A8 8 0 0 1 15 2z\"/>"),
    ]

    /// A garage door drawn open: the frame, the door rolled up under the roof.
    static let openGarageShape = "<path d=\"M3 10l9-7 9 7v11h-2V11H5v10H3zm4 2h10v2H7z\"/>"
    /// A lock drawn open: the shackle lifted and swung aside.
    static let openLockShape = "<path d=\"M6 10h9V6a3 3 0 0 1 6 0v2h-2V6a1 1 0 0 0-2 0v4h1v11H6z\"/>"

    /// For a name of no known family.
    static let unknownShape = "<rect x=\"5\" y=\"5\" width=\"14\" height=\"14\" rx=\"3\"/>"

    /// The drawing for a symbol name (`power` is its own family, not `powerplug`'s).
    static func shape(_ name: String?) -> String {
        guard let name else { return unknownShape }
        for family in families where family.prefixes.contains(where: { matches(name, $0) }) { return family.shape }
        return unknownShape
    }

    /// Whether the name is of a known family.
    static func isKnown(_ name: String) -> Bool {
        families.contains { $0.prefixes.contains { matches(name, $0) } }
    }

    /// The name itself, or the stem followed by a '.' (so `power` does not take `powerplug.fill`).
    private static func matches(_ name: String, _ prefix: String) -> Bool {
        name == prefix || name.hasPrefix(prefix.hasSuffix(".") ? prefix : prefix + ".")
    }

    /// The drawing for a symbol name on a tile showing `isShownOn`: a garage
    /// door (`door.garage.closed` or `.open`) is drawn open while it is on
    /// (open), a lock open while it is off (unlocked), as the tile's state says
    /// and not as the name says.
    static func shape(_ name: String?, isShownOn: Bool) -> String {
        let drawn = shape(name)
        if drawn == shape("door.garage"), isShownOn { return openGarageShape }
        if drawn == shape("lock"), !isShownOn { return openLockShape }
        return drawn
    }

    /// The icon as an element of the tile: an SVG 22 px (the tile's mark), filled with the text colour.
    static func svg(_ name: String?, isShownOn: Bool? = nil) -> String {
        let drawn = isShownOn.map { shape(name, isShownOn: $0) } ?? shape(name)
        return "<svg class=\"icon\" viewBox=\"0 0 24 24\" width=\"22\" height=\"22\" fill=\"currentColor\" aria-hidden=\"true\">"
            + drawn + "</svg>"
    }
}
