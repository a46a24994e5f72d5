@testable import BridgeDaemon

/// A small checker of the Prometheus text exposition format, for the tests.
enum PrometheusFormatCheck {
    static func problems(in text: String) -> [String] {
        guard text.hasSuffix("\n") else { return ["text must end with a line feed"] }
        var problems: [String] = []
        var typed: [String: String] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix("# HELP ") { continue }
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                guard parts.count == 4, ["counter", "gauge", "histogram"].contains(String(parts[3])) else {
                    problems.append("bad TYPE line: \(line)")
                    continue
                }
                typed[String(parts[2])] = String(parts[3])
                continue
            }
            problems += sampleProblems(String(line), typed: typed)
        }
        return problems
    }

    private static func sampleProblems(_ line: String, typed: [String: String]) -> [String] {
        let name = String(line.prefix(while: { $0 != "{" && $0 != " " }))
        guard name.hasPrefix(DaemonMetrics.prefix),
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") })
        else { return ["bad metric name: \(line)"] }
        let family = ["_bucket", "_sum", "_count"].reduce(name) { current, suffix in
            typed[current] == nil && current.hasSuffix(suffix) ? String(current.dropLast(suffix.count)) : current
        }
        guard typed[family] != nil else { return ["sample before its TYPE: \(line)"] }
        guard let value = line.split(separator: " ").last, Double(String(value)) != nil || value == "+Inf" else {
            return ["bad value: \(line)"]
        }
        return []
    }
}
