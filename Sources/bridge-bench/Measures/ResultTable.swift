/// Whether a figure met its target.
enum Verdict: String, Sendable {
    case met = "yes"
    case missed = "NO"
    case reported = "-"
}

/// One line of the bench's table.
struct ResultRow: Sendable {
    var scenario: String
    var figure: String
    var value: String
    var target: String
    var verdict: Verdict
}

/// The rows gathered so far, printed as one Markdown table.
struct ResultTable: Sendable {
    private(set) var rows: [ResultRow] = []

    mutating func add(_ scenario: String, _ figure: String, _ value: String, target: String = "reported", _ verdict: Verdict = .reported) {
        rows.append(ResultRow(scenario: scenario, figure: figure, value: value, target: target, verdict: verdict))
    }

    /// A row for a latency with an upper bound; a missing value is a miss.
    mutating func addLatency(_ scenario: String, _ figure: String, us: Int64?, limitUs: Int64?) {
        guard let us else {
            add(scenario, figure, "no samples", target: limitUs.map { "≤ " + Figure.milliseconds(us: $0) } ?? "reported", .missed)
            return
        }
        guard let limitUs else {
            add(scenario, figure, Figure.milliseconds(us: us))
            return
        }
        add(scenario, figure, Figure.milliseconds(us: us), target: "≤ " + Figure.milliseconds(us: limitUs), us <= limitUs ? .met : .missed)
    }

    var missedCount: Int { rows.filter { $0.verdict == .missed }.count }

    func rendered() -> String {
        let header = ["scenario", "figure", "value", "target", "met?"]
        let cells = rows.map { [$0.scenario, $0.figure, $0.value, $0.target, $0.verdict.rawValue] }
        let widths = header.indices.map { column in
            ([header] + cells).map { $0[column].count }.max() ?? 0
        }
        func line(_ values: [String]) -> String {
            "| " + values.indices.map { values[$0] + String(repeating: " ", count: widths[$0] - values[$0].count) }
                .joined(separator: " | ") + " |"
        }
        let rule = "| " + widths.map { String(repeating: "-", count: max(3, $0)) }.joined(separator: " | ") + " |"
        return ([line(header), rule] + cells.map(line)).joined(separator: "\n")
    }
}
