/// `widgets:` — each widget's slug and actions, with unique slugs and unique
/// action ids per widget.
extension ConfigDecoder {
    mutating func decodeWidgets(_ node: YAMLNode, zigbee2mqttBaseTopic: String) -> [WidgetConfig] {
        guard let items = node.sequenceItems else {
            error("'widgets' must be a list of widgets ('- slug: ...'), not \(node.typeDescription)", at: node.location)
            return []
        }
        if items.isEmpty { error("'widgets' must list at least one widget", at: node.location) }
        var widgets: [WidgetConfig] = []
        var actionNodes: [[YAMLNode]] = []
        var firstSlugUse: [String: SourceLocation] = [:]
        for (index, item) in items.enumerated() {
            let slug = Self.peekText(item, "slug")
            let name = slug.map { "widget '\($0)'" } ?? "widget #\(index + 1)"
            guard let decoded = decodeWidget(item, name: name, zigbee2mqttBaseTopic: zigbee2mqttBaseTopic) else { continue }
            let (widget, nodes) = decoded
            let slugLocation = Self.peekValueLocation(item, "slug") ?? item.location
            if let first = firstSlugUse[widget.slug] {
                error("duplicate widget slug '\(widget.slug)' (first used at \(first))", at: slugLocation)
            } else {
                firstSlugUse[widget.slug] = slugLocation
            }
            widgets.append(widget)
            actionNodes.append(nodes)
        }
        checkUnlockingButtons(&widgets, actionNodes: actionNodes)
        return widgets
    }

    /// A button (of any widget) that publishes an unlock to a lock tile's
    /// command topic: refused when the tile only locks (the button would unlock
    /// behind its back); otherwise the button is an unlock, so not safe to
    /// repeat, and an explicit `repeat_safe: true` on it is refused.
    private mutating func checkUnlockingButtons(_ widgets: inout [WidgetConfig], actionNodes: [[YAMLNode]]) {
        var locks: [UTF8Key: ActionConfig] = [:]
        for action in widgets.flatMap(\.actions) where action.kind == .toggle && action.device == .lock {
            guard let command = action.command else { continue }
            for topic in [command.topic] + (command.offTopic.map { [$0] } ?? []) where locks[UTF8Key(topic)] == nil {
                locks[UTF8Key(topic)] = action
            }
        }
        guard !locks.isEmpty else { return }
        for widgetIndex in widgets.indices {
            for actionIndex in widgets[widgetIndex].actions.indices where widgets[widgetIndex].actions[actionIndex].kind == .button {
                let node = actionNodes[widgetIndex][actionIndex]
                if let unlocked = unlockingMessage(widgets[widgetIndex].actions[actionIndex], node: node, locks: locks) {
                    settleUnlockingButton(&widgets[widgetIndex].actions[actionIndex], unlocks: unlocked, node: node)
                }
            }
        }
    }

    /// The first lock tile (that may unlock) the button unlocks; each message
    /// unlocking a lock-only tile is refused on its line.
    private mutating func unlockingMessage(_ button: ActionConfig, node: YAMLNode, locks: [UTF8Key: ActionConfig])
        -> (lock: ActionConfig, message: MQTTMessageSpec)? {
        let publishNode = node.mappingEntries?.first { $0.keyText == "publish" }?.value
        let items = publishNode?.sequenceItems ?? publishNode.map { [$0] } ?? []
        var unlocked: (lock: ActionConfig, message: MQTTMessageSpec)?
        for (index, message) in button.publishes.enumerated() {
            guard let lock = locks[UTF8Key(message.topic)], Self.isUnlock(message.payload, of: lock) else { continue }
            guard !lock.allowUnlock else {
                if unlocked == nil { unlocked = (lock, message) }
                continue
            }
            let what = publishNode?.sequenceItems == nil
                ? "'publish' of action '\(button.id)'" : "message #\(index + 1) of 'publish' of action '\(button.id)'"
            let location = index < items.count ? items[index].location : (button.location ?? node.location)
            error("\(what) sends '\(message.payload)' to '\(message.topic)', the command topic of lock tile '\(lock.id)', which "
                  + "only locks: a button would unlock it behind the tile's back; remove this message "
                  + "(or add 'allow_unlock: true' to '\(lock.id)' and press that tile)", at: location)
        }
        return unlocked
    }

    /// A button that unlocks is an unlock: never run twice for one press.
    private mutating func settleUnlockingButton(_ button: inout ActionConfig, unlocks: (lock: ActionConfig, message: MQTTMessageSpec),
                                                node: YAMLNode) {
        if let entry = node.mappingEntries?.first(where: { $0.keyText == "repeat_safe" }), case .bool(true)? = entry.value.scalar?.value {
            error("'repeat_safe: true' in action '\(button.id)': it unlocks lock tile '\(unlocks.lock.id)' ('\(unlocks.message.payload)' "
                  + "to '\(unlocks.message.topic)'), and an unlock must never run twice for one press; remove 'repeat_safe: true'",
                  at: entry.key.location)
        }
        button.repeatSafe = false
    }

    /// Whether `payload` to a lock's command topic unlocks it: its own unlock
    /// command, or any payload speaking of unlocking.
    static func isUnlock(_ payload: String, of lock: ActionConfig) -> Bool {
        if isUnlockWord(payload) { return true }
        guard let off = lock.command?.payloadOff, !off.isEmpty else { return false }
        return payload.lowercased() == off.lowercased()
    }

    /// The widget and its actions' YAML (in the same order).
    private mutating func decodeWidget(_ node: YAMLNode, name: String, zigbee2mqttBaseTopic: String) -> (WidgetConfig, [YAMLNode])? {
        guard let widget = section(node, name: name, allowedKeys: ConfigKeys.widget) else { return nil }
        let slug = requiredString(widget, "slug")
        if let slug, !Self.isValidSlug(slug) {
            error("'slug' in \(name) may only use letters, digits, '-', '_' and '.'", at: widget.value("slug")?.location ?? widget.location)
        }
        guard let actionsNode = widget.value("actions") else {
            error("missing required key 'actions' in \(name)", at: widget.location)
            return nil
        }
        guard let items = actionsNode.sequenceItems else {
            error("'actions' in \(name) must be a list of actions ('- id: ...'), not \(actionsNode.typeDescription)", at: actionsNode.location)
            return nil
        }
        if items.isEmpty { error("'actions' in \(name) must list at least one action", at: actionsNode.location) }
        var actions: [ActionConfig] = []
        var actionNodes: [YAMLNode] = []
        var firstIdUse: [String: SourceLocation] = [:]
        for (index, item) in items.enumerated() {
            let id = Self.peekText(item, "id")
            let actionName = id.map { "action '\($0)'" } ?? "action #\(index + 1) of \(name)"
            guard let action = decodeAction(item, name: actionName, zigbee2mqttBaseTopic: zigbee2mqttBaseTopic) else { continue }
            let idLocation = Self.peekValueLocation(item, "id") ?? item.location
            if let first = firstIdUse[action.id] {
                error("duplicate action id '\(action.id)' in \(name) (first used at \(first))", at: idLocation)
            } else {
                firstIdUse[action.id] = idLocation
            }
            actions.append(action)
            actionNodes.append(item)
        }
        checkScenes(&actions, nodes: actionNodes, widgetName: name)
        let intervalMs = integer(widget, "min_publish_interval_ms", range: TimingSettings.minPublishIntervalMsRange)
        let widgetConfig = WidgetConfig(slug: slug ?? "", actions: actions, location: node.location, minPublishIntervalMs: intervalMs)
        checkContentSize(widgetConfig, name: name)
        return (widgetConfig, actionNodes)
    }

    /// The service refuses a body over its limit (413): the largest content any
    /// states can render (every toggle's `"on":false`, the state the bridge starts
    /// in, is a byte longer than `"on":true`) must fit.
    private mutating func checkContentSize(_ widget: WidgetConfig, name: String) {
        let bytes = WidgetTemplate(widget: widget).largestBodyBytes
        let limit = SwitchboardContentRules.maxPatchBodyBytes
        if bytes > limit {
            error("the content of \(name) can be \(bytes) bytes (its \(widget.actions.count) action(s) in their longest state, "
                  + "a toggle off), and the service refuses more than \(limit) (413): "
                  + "shorten its template fields or split it into two widgets", at: widget.location ?? SourceLocation(line: 1, column: 1))
        }
    }

    /// The text of `key` in a mapping node, before the node is decoded (to
    /// name it in messages).
    static func peekText(_ node: YAMLNode, _ key: String) -> String? {
        node.mappingEntries?.first { $0.keyText == key }?.value.scalar?.textValue
    }

    static func peekValueLocation(_ node: YAMLNode, _ key: String) -> SourceLocation? {
        node.mappingEntries?.first { $0.keyText == key }?.value.location
    }

    static func isValidSlug(_ slug: String) -> Bool {
        slug.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
        }
    }
}
