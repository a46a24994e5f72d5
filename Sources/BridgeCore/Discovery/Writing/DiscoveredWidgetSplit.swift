/// How `discover` shares its actions among widgets: in order, as many in one widget
/// as keep its largest content (every tile in its longest state, as `check` holds
/// it) within what the service accepts; the next widget's slug gets `-2`, `-3`, ...
///
/// Splitting is the only way to keep them all: the service refuses a larger body
/// (413), and a widget's content is replaced as a whole on every publish. Each
/// slug must exist in the Aivi app, so the file says which to create.
public struct DiscoveredWidgetSplit: Sendable {
    /// Each widget's slug and the indices of its actions.
    public let widgets: [(slug: String, actions: Range<Int>)]

    public init(slug: String, actions: [ActionConfig], limitBytes: Int = SwitchboardContentRules.maxPatchBodyBytes) {
        var widgets: [(slug: String, actions: Range<Int>)] = []
        var start = 0
        var bytes = WidgetTemplate.framingBytes
        for (index, action) in actions.enumerated() {
            let added = WidgetTemplate.largestActionBytes(action) + (index > start ? 1 : 0)
            if index > start, bytes + added > limitBytes {
                widgets.append((Self.slug(slug, number: widgets.count + 1), start..<index))
                start = index
                bytes = WidgetTemplate.framingBytes + WidgetTemplate.largestActionBytes(action)
            } else {
                bytes += added
            }
        }
        widgets.append((Self.slug(slug, number: widgets.count + 1), start..<actions.count))
        self.widgets = widgets
    }

    /// `home`, then `home-2`, `home-3`, ...
    static func slug(_ slug: String, number: Int) -> String {
        number == 1 ? slug : "\(slug)-\(number)"
    }

    /// The comment above the widgets when there are several: why, and what to create.
    public var note: [String] {
        guard widgets.count > 1 else { return [] }
        return [
            "  # One widget's content (every action, each in its longest state) must stay within",
            "  # \(SwitchboardContentRules.maxPatchBodyBytes) bytes, the most the Aivi service accepts: these actions are shared among",
            "  # \(widgets.count) widgets. Create each of them in the Aivi app: \(widgets.map(\.slug).joined(separator: ", ")).",
        ]
    }
}
