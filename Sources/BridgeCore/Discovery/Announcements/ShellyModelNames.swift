/// The names the Shelly app gives models, for labelling a device its owner never named.
/// A gen2+ device says it in its announcement's `app` (`Plus1PM`); a gen1 only gives its
/// model code (`SHSW-1`), named here for the common ones (Shelly gen1 API docs, each
/// device's page: "Shelly1: SHSW-1", ...); an unknown code is written as it is.
enum ShellyModelNames {
    static let gen1: [String: String] = [
        "SHSW-1": "1", "SHSW-PM": "1PM", "SHSW-L": "1L", "SHSW-21": "2", "SHSW-25": "2.5", "SHSW-44": "4Pro",
        "SHPLG-1": "Plug", "SHPLG-S": "Plug S", "SHPLG-U1": "Plug US", "SHPLG2-1": "Plug",
        "SHRGBW2": "RGBW2", "SHDM-1": "Dimmer", "SHDM-2": "Dimmer 2", "SHBLB-1": "Bulb", "SHCB-1": "Bulb RGBW",
        "SHBDUO-1": "Duo", "SHVIN-1": "Vintage", "SH2LED-1": "2LED", "SHEM": "EM", "SHEM-3": "3EM", "SHUNI-1": "UNI",
        "SHIX3-1": "i3", "SHBTN-1": "Button1", "SHBTN-2": "Button1", "SHHT-1": "H&T", "SHWT-1": "Flood",
        "SHDW-1": "Door/Window", "SHDW-2": "Door/Window 2",
    ]

    /// The model's name: the gen2+ `app`, a known gen1 code's name, or the code itself.
    static func name(model: String, app: String?) -> String {
        if let app, !app.isEmpty { return app }
        return gen1[model] ?? model
    }
}
