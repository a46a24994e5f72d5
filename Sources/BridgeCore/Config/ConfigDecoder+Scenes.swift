/// `sets:` — a scene made of the widget's own tiles.
///
/// `sets: {porch: off, fountain: off}` maps action ids of the same widget to
/// `on` or `off` (a cover's on is open, a lock's on is locked). What `check`
/// refuses, each on its entry's line: an id the widget lacks (with a
/// did-you-mean), a button or the scene itself as a target, a value other than
/// on/off, a lock set off whose tile lacks `allow_unlock`, and an `optimistic`
/// tile: it reports nothing, so the scene's highlight could not tell the truth.
///
/// Decided here:
/// - `sets:` wins over `active_topic:`: the highlight is derived from the
///   tiles; an `active_topic` beside it is ignored, with a warning on its line.
/// - A scene is `repeat_safe: true` by default (its commands are explicit
///   states), but `false` when a target is not safe to repeat (a pulsed door):
///   a scene is as unsafe as its least safe tile, and an explicit
///   `repeat_safe: true` on such a scene is refused on its line.
extension ConfigDecoder {
    /// The entries of `sets:` (their ids checked against the widget later, by `checkScenes`).
    mutating func decodeSets(_ section: ConfigSection) -> [SceneTarget] {
        guard let entry = section.entry("sets") else { return [] }
        let example = "{porch: off, fountain: off}"
        guard !entry.value.isNull else {
            error("'sets' \(section.place) has no tiles: write the widget's toggles and their states, \(example)", at: entry.key.location)
            return []
        }
        guard let items = entry.value.mappingEntries else {
            error("'sets' \(section.place) must map tile ids to on or off, \(example), not \(entry.value.typeDescription)",
                  at: entry.value.location)
            return []
        }
        if items.isEmpty { error("'sets' \(section.place) must list at least one tile, \(example)", at: entry.value.location) }
        return items.compactMap { item in
            guard let on = sceneState(item, section: section) else { return nil }
            return SceneTarget(actionId: item.keyText, on: on, location: item.key.location)
        }
    }

    /// `on` or `off` (any case); anything else is refused with what to write.
    private mutating func sceneState(_ item: YAMLMapEntry, section: ConfigSection) -> Bool? {
        let text = item.value.scalar?.textValue ?? ""
        switch text.lowercased() {
        case "on": return true
        case "off": return false
        default: break
        }
        let hint = switch text.lowercased() {
        case "open", "locked", "lock", "true", "1": " (write 'on': for a cover on is open, for a lock on is locked)"
        case "closed", "close", "unlocked", "unlock", "false", "0": " (write 'off': for a cover off is closed, for a lock off is unlocked)"
        default: ""
        }
        let shown = item.value.scalar == nil ? item.value.typeDescription : "'\(text)'"
        error("'\(item.keyText)' in 'sets' \(section.place) must be on or off, not \(shown)\(hint)", at: item.value.location)
        return nil
    }

    /// A button beside `sets:` keeps no highlight of its own: the tiles decide.
    mutating func reportActiveTopicOfScene(_ section: ConfigSection) {
        guard let entry = section.entry("active_topic"), !entry.value.isNull else { return }
        warning("'active_topic' \(section.place) is ignored: a scene with 'sets' is active exactly while its tiles hold "
                + "their states; remove 'active_topic' (or 'sets', to keep a scene engine's highlight)", at: entry.key.location)
    }

    /// Checks each scene's targets against its widget's actions (`nodes`: each
    /// action's YAML, in the same order) and settles the scene's `repeat_safe`.
    mutating func checkScenes(_ actions: inout [ActionConfig], nodes: [YAMLNode], widgetName: String) {
        guard actions.contains(where: \.isScene) else { return }
        var byId: [String: ActionConfig] = [:]
        for action in actions where byId[action.id] == nil { byId[action.id] = action }
        let toggleIds = actions.filter { $0.kind == .toggle }.map(\.id)
        for index in actions.indices where actions[index].isScene {
            let scene = actions[index]
            var unsafeTargets: [String] = []
            for target in scene.sets {
                guard let tile = byId[target.actionId] else {
                    let suggestion = EditDistance.suggestion(for: target.actionId, among: toggleIds).map { " (did you mean '\($0)'?)" } ?? ""
                    error("'sets' of action '\(scene.id)': \(widgetName) has no action '\(target.actionId)'\(suggestion)",
                          at: target.location ?? scene.location ?? SourceLocation(line: 1, column: 1))
                    continue
                }
                if let problem = Self.targetProblem(tile, target, scene: scene) {
                    error("'sets' of action '\(scene.id)': \(problem)", at: target.location ?? scene.location ?? SourceLocation(line: 1, column: 1))
                } else if !tile.repeatSafe {
                    unsafeTargets.append(tile.id)
                }
            }
            settleRepeatSafe(&actions[index], unsafeTargets: unsafeTargets, node: nodes[index])
        }
    }

    /// Why `tile` cannot be this target, or nil.
    static func targetProblem(_ tile: ActionConfig, _ target: SceneTarget, scene: ActionConfig) -> String? {
        if tile.id == scene.id { return "a scene cannot set itself; list the widget's toggles" }
        if tile.kind == .button {
            return "'\(tile.id)' is a button; a scene sets toggles only (it is active while they hold their states)"
        }
        if tile.optimistic {
            return "'\(tile.id)' is optimistic: its device reports nothing, so the scene's highlight could not tell "
                + "the truth; give '\(tile.id)' a state topic (or a preset) or leave it out of the scene"
        }
        if tile.device == .lock, !target.on, !tile.allowUnlock {
            return "'\(tile.id)' is a lock tile that only locks, so a scene cannot unlock it: set it 'on' (locked), "
                + "or add 'allow_unlock: true' to '\(tile.id)'"
        }
        return nil
    }

    /// A scene is as safe to repeat as its least safe tile.
    private mutating func settleRepeatSafe(_ scene: inout ActionConfig, unsafeTargets: [String], node: YAMLNode) {
        guard !unsafeTargets.isEmpty else { return }
        let explicit = node.mappingEntries?.first { $0.keyText == "repeat_safe" }
        if let explicit, case .bool(true)? = explicit.value.scalar?.value {
            error("'repeat_safe: true' in action '\(scene.id)': its tile(s) \(unsafeTargets.map { "'\($0)'" }.joined(separator: ", ")) "
                  + "must never run twice for one press, so neither may the scene; remove 'repeat_safe: true'",
                  at: explicit.key.location)
        }
        scene.repeatSafe = false
    }
}
