/// A widget's body from the current states, built only when what its tiles
/// show changed since its last render: a PATCH's answer, a press answered with
/// the same state, or a message that moves nothing shown asks for the body
/// again, and gets the last one (a render is one byte copy per action and a
/// UTF-8 check of the whole body; comparing what is shown is one bool per action).
extension Bridge {
    /// A widget's last render: what its tiles showed, and the body that made.
    struct RenderedBody: Sendable {
        var shown: WidgetTemplate.Shown
        var body: String
    }

    /// The body `template` (the widget's whose `publisher` this is) renders for
    /// the current states.
    mutating func currentBody(_ template: WidgetTemplate, _ publisher: inout WidgetPublisher) -> String {
        let shown = template.shown(states)
        if let last = publisher.lastRender, last.shown == shown { return last.body }
        let body = template.body(shown)
        bodyRenderCount += 1
        publisher.lastRender = RenderedBody(shown: shown, body: body)
        return body
    }
}
