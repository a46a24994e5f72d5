import BridgeCore

/// The problems `check` finds beyond the config's own diagnostics: the token,
/// every file the daemon reads, the state directory. Each is rendered on the
/// config line that names it, with that line and a caret.
struct CheckFindings {
    let config: BridgeConfig
    let loaded: ConfigFile.Loaded
    /// Problems, for stderr.
    var lines: [String] = []
    /// Facts worth knowing when all is well, for stdout.
    var notes: [String] = []
    private(set) var hasError = false

    /// The state directory the shipped unit makes writable (`StateDirectory=`).
    static let unitStateDirectory = "/var/lib/switchboard-bridge"

    init(config: BridgeConfig, loaded: ConfigFile.Loaded) {
        self.config = config
        self.loaded = loaded
    }

    mutating func checkToken(_ environment: [String: String]) {
        let loader = CredentialLoader(
            tokenFilePath: config.aivi.tokenFile, tokenEnvironmentVariable: config.aivi.tokenEnv, environment: environment)
        do {
            let token = try loader.load()
            for warning in token.warnings { report(.warning, "\(warning)", key: "aivi.token_file") }
            notes.append("API token: read from \(token.source)")
        } catch {
            let described = TokenErrorText.describe(error, config: config)
            report(.error, "the API token cannot be read: \(described.message)", key: described.settingKey)
        }
    }

    mutating func checkFiles(_ environment: [String: String]) {
        if let path = config.mqtt.passwordFile {
            checkReadable(path, what: "the MQTT password file", key: "mqtt.password_file", environment)
            if FileAccessProbe.readProblem(path) == nil {
                for warning in CredentialWarning.mqttPasswordFile(path) { report(.warning, "\(warning)", key: "mqtt.password_file") }
            }
        }
        for (key, path) in FileAccessProbe.caFiles(config) {
            checkReadable(path, what: "the CA file", key: key, environment, limit: FileAccessProbe.maxCAFileBytes)
        }
    }

    /// Whether others may rewrite the config file (or its directory).
    mutating func checkConfigFile(_ path: String) {
        for warning in CredentialWarning.configFile(path) { report(.warning, "\(warning)", key: nil) }
    }

    private mutating func checkReadable(_ path: String, what: String, key: String, _ environment: [String: String],
                                        limit: Int = .max) {
        guard let problem = FileAccessProbe.readProblem(path, limit: limit) else { return }
        if path.hasPrefix("/run/credentials/"), environment["CREDENTIALS_DIRECTORY"] == nil {
            report(.warning, "\(what) \(path) is a systemd credential, present only while the service runs "
                   + "(\(problem) here); check the file its LoadCredential= line names", key: key)
            return
        }
        report(.error, "cannot read \(what) \(path): \(problem); `run` would stop at start", key: key)
    }

    mutating func checkStateDirectory() {
        let directory = config.stateDirectory
        let user = FileAccessProbe.currentUserDescription()
        if let problem = FileAccessProbe.stateDirectoryProblem(directory) {
            report(.error, "state_dir: \(problem) (checked as user \(user)); `run` would stop at start", key: "state_dir")
        } else {
            notes.append("state_dir: \(directory) can be created and written by user \(user)")
        }
        switch StateDirectoryLock.holder(directory: directory) {
        case nil: break
        case .heldByAnother(let path, let pid)?:
            // A warning, not an error: it is most often the service this config is for.
            report(.warning, "state_dir: a switchboard-bridge \(pid.map { "(PID \($0)) " } ?? "")runs on \(directory) (it holds "
                   + "\(path)); a second `run` on it would stop at start (exit 78), as two bridges would each carry out "
                   + "presses not safe to repeat. If it is the service of this config, reload it "
                   + "(`sudo systemctl reload switchboard-bridge`); else give this config another state_dir", key: "state_dir")
        case .file(let failure)? where failure.refusedKind != nil:
            report(.error, "state_dir: the state directory's lock \(failure.path) is \(failure.refusedKind ?? "") "
                   + "(remove it; the bridge makes its own); `run` would stop at start (exit 78)", key: "state_dir")
        case let problem?:
            report(.warning, "state_dir: \(problem)", key: "state_dir")
        }
        let idFile = trimmedDirectory(directory) + "/" + EventIdStore.fileName
        if let problem = FileAccessProbe.refusedStateFileProblem(idFile) {
            report(.error, "state_dir: the record of presses not safe to repeat, \(idFile), is \(problem) "
                   + "(remove it; the bridge makes its own); `run` would stop at start (exit 78)", key: "state_dir")
        }
        if trimmedDirectory(directory) != Self.unitStateDirectory {
            report(.warning, "state_dir \(directory): under the shipped unit only \(Self.unitStateDirectory) is writable "
                   + "(StateDirectory=switchboard-bridge); add ReadWritePaths=\(directory) with "
                   + "`sudo systemctl edit switchboard-bridge`, or use \(Self.unitStateDirectory)", key: "state_dir")
        }
    }

    private func trimmedDirectory(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// A problem on the line of `key` (with the line and a caret), or on the
    /// file when the key is not written in it (a default).
    private mutating func report(_ severity: ConfigDiagnostic.Severity, _ message: String, key: String?) {
        if severity == .error { hasError = true }
        guard let key, let location = config.settingLocations[key] else {
            lines.append("\(loaded.fileName): \(severity.rawValue): \(message)")
            return
        }
        let lineIndex = location.line - 1
        let sourceLine = loaded.sourceLines.indices.contains(lineIndex) ? loaded.sourceLines[lineIndex] : nil
        lines.append(ConfigDiagnostic(severity: severity, fileName: loaded.fileName, location: location,
                                      message: message, sourceLine: sourceLine).rendered())
    }
}

/// `sudo switchboard-bridge check` runs as root, who reads every file; the shipped
/// unit runs the service as a throw-away user (`DynamicUser=yes`), neither owner nor
/// group of anything in /etc, who reads only what others may read (and the
/// credentials systemd hands it). What that user could not read is said, as a
/// warning on its line, with the fix: else `check` passes and the service stops
/// at start (exit 78).
extension CheckFindings {
    /// The token file the shipped unit hands to the service as a credential.
    static let unitTokenCredentialSource = "/etc/switchboard-bridge/aivi-token"

    mutating func checkAsTheUnitsUser(configPath: String, environment: [String: String], isRoot: Bool) {
        guard isRoot, environment["CREDENTIALS_DIRECTORY"] == nil else { return }
        let unit = "under the shipped unit the service runs as a throw-away user (DynamicUser=yes), not root"
        if let why = FileAccessProbe.unreadableByOtherUsers(configPath) {
            report(.warning, "checked as root: \(unit), and it cannot read the config file \(configPath) (\(why)): the "
                   + "service would stop at start (exit 78); the config holds no secret: chmod 644 \(configPath)", key: nil)
        }
        if let path = config.mqtt.passwordFile, !path.hasPrefix("/run/credentials/"),
           let why = FileAccessProbe.unreadableByOtherUsers(path) {
            report(.warning, "checked as root: \(unit), and it cannot read the MQTT password file \(path) (\(why)): the "
                   + "service would stop at start (exit 78); hand it over as a credential: `sudo systemctl edit "
                   + "switchboard-bridge`, add LoadCredential=mqtt-password:\(path) under [Service], and set password_file: "
                   + "/run/credentials/switchboard-bridge.service/mqtt-password", key: "mqtt.password_file")
        }
        if let path = config.aivi.tokenFile, !path.hasPrefix("/run/credentials/"),
           FileAccessProbe.readProblem(Self.unitTokenCredentialSource) != nil,
           let why = FileAccessProbe.unreadableByOtherUsers(path) {
            report(.warning, "checked as root: \(unit), and it cannot read the token file \(path) (\(why)); put the token "
                   + "in \(Self.unitTokenCredentialSource) (mode 0600, owner root), which the unit hands to the service as "
                   + "its credential", key: "aivi.token_file")
        }
        for (key, path) in FileAccessProbe.caFiles(config) {
            guard let why = FileAccessProbe.unreadableByOtherUsers(path) else { continue }
            report(.warning, "checked as root: \(unit), and it cannot read the CA file \(path) (\(why)): the service "
                   + "would stop at start (exit 78); a CA certificate is public: chmod 644 \(path)", key: key)
        }
    }
}
