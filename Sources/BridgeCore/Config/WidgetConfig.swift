/// One Switchboard widget the bridge owns, identified by its slug.
public struct WidgetConfig: Sendable, Equatable {
    public var slug: String
    public var actions: [ActionConfig]
    /// Where in the config file the widget starts (for messages).
    public var location: SourceLocation?

    public init(slug: String, actions: [ActionConfig], location: SourceLocation? = nil) {
        self.slug = slug
        self.actions = actions
        self.location = location
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
