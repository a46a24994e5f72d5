/// What the homeowner reads when the broker refuses the connection: the login the
/// bridge gave (the username, or none; never the password) and where to change it,
/// in the config (`mqtt.username`, `mqtt.password_file`) or in `discover`'s options.
/// Mosquitto says "not authorized" alike to a wrong password and to a missing
/// username, so the text starts from what the bridge sent, not from the broker's words.
public struct BrokerLoginRefusal: Sendable, Equatable {
    /// Where the login is set, as the words to show for each setting.
    public struct Settings: Sendable, Equatable {
        public var username: String
        public var passwordFile: String
        /// How one sets them ("set", "give").
        public var verb: String
        /// Where those settings live ("in /etc/.../bridge.yaml", "to discover").
        public var place: String

        /// The config file's keys.
        public static func config(path: String?) -> Settings {
            Settings(username: "mqtt.username", passwordFile: "mqtt.password_file", verb: "set", place: "in " + (path.map(shown) ?? "the config"))
        }

        /// `discover`'s options.
        public static let discoverOptions = Settings(username: "--username", passwordFile: "--password-file", verb: "give", place: "to discover")
    }

    /// The username sent, nil for none.
    public var username: String?
    /// The file the password was read from, nil when none was sent.
    public var passwordFile: String?
    public var settings: Settings

    public init(username: String?, passwordFile: String?, settings: Settings) {
        self.username = username
        self.passwordFile = passwordFile
        self.settings = settings
    }

    /// The sentence for the broker's `refusal`; `withRetry` ends it with when the
    /// shell tries again (the daemon and `watch` do; `discover` gives up).
    public func text(broker: String, refusal: MQTTRefusal, withRetry: Bool = false) -> String {
        let sentence = text(broker: broker, isAboutLogin: refusal.isAboutLogin, brokerText: refusal.brokerText)
        return withRetry ? sentence + "; " + Self.retryText(delayMs: refusal.retryDelayMs) : sentence
    }

    /// The sentence for a refusal; `isAboutLogin` false for a refusal of another kind
    /// (server unavailable, client id rejected), where only the broker's words help.
    /// `brokerText` is the broker's answer, shown last and lowercased.
    func text(broker: String, isAboutLogin: Bool, brokerText: String) -> String {
        let said = "(the broker answered \"\(brokerText.lowercased())\")"
        guard isAboutLogin else { return "the broker at \(broker) refused the connection \(said)" }
        guard let username = username.map(Self.shown) else {
            return "the broker at \(broker) wants a username and password, and none was given: "
                + "\(settings.verb) \(settings.username) and \(settings.passwordFile) \(settings.place) \(said)"
        }
        guard let passwordFile = passwordFile.map(Self.shown) else {
            return "the broker at \(broker) did not let in the username '\(username)' without a password: "
                + "\(settings.verb) \(settings.passwordFile) \(settings.place), a file holding its password, or check \(settings.username) \(said)"
        }
        return "the broker at \(broker) did not let in the username '\(username)' with the password in \(passwordFile): "
            + "check \(settings.username) and the password in that file (\(settings.passwordFile) \(settings.place)) "
            + "against the broker's users \(said)"
    }

    /// A name from the config or the command line, safe on a terminal and in the journal.
    static func shown(_ text: String) -> String {
        DisplayText.escapingControls(DisplayText.prefix(text, maxScalars: 200))
    }

    /// How the daemon and `watch` end the sentence: when they try again.
    static func retryText(delayMs: Int) -> String {
        let seconds = max(1, (delayMs + 999) / 1_000)
        return "trying again in \(seconds) s"
    }
}
