/// One Switchboard widget the bridge owns, identified by its slug.
public struct WidgetConfig: Sendable, Equatable {
    public var slug: String
    public var actions: [ActionConfig]
    /// Where in the config file the widget starts (for messages).
    public var location: SourceLocation?
    /// This widget's own `min_publish_interval_ms`; nil uses the `timing` default.
    public var minPublishIntervalMs: Int64?

    public init(slug: String, actions: [ActionConfig], location: SourceLocation? = nil, minPublishIntervalMs: Int64? = nil) {
        self.slug = slug
        self.actions = actions
        self.location = location
        self.minPublishIntervalMs = minPublishIntervalMs
    }
}

/// A place in a text file: 1-based line and column.
public struct SourceLocation: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
