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
        var firstSlugUse: [String: SourceLocation] = [:]
        for (index, item) in items.enumerated() {
            let slug = Self.peekText(item, "slug")
            let name = slug.map { "widget '\($0)'" } ?? "widget #\(index + 1)"
            guard let widget = decodeWidget(item, name: name, zigbee2mqttBaseTopic: zigbee2mqttBaseTopic) else { continue }
            let slugLocation = Self.peekValueLocation(item, "slug") ?? item.location
            if let first = firstSlugUse[widget.slug] {
                error("duplicate widget slug '\(widget.slug)' (first used at \(first))", at: slugLocation)
            } else {
                firstSlugUse[widget.slug] = slugLocation
            }
            widgets.append(widget)
        }
        return widgets
    }

    private mutating func decodeWidget(_ node: YAMLNode, name: String, zigbee2mqttBaseTopic: String) -> WidgetConfig? {
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
        return widgetConfig
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
