import BridgeCore

/// Renders `MetricsCounters` as Prometheus text: every series always present
/// (zeros included), in a fixed order, so scrapes are comparable.
enum MetricsExposition {
    static func text(for counters: MetricsCounters) -> String {
        var output = PrometheusText()
        let prefix = DaemonMetrics.prefix
        output.family(prefix + "presses_received_total", type: "counter", help: "Presses that arrived on the event stream.")
        output.sample(prefix + "presses_received_total", value: String(counters.pressesReceived))
        output.family(prefix + "presses_carried_out_total", type: "counter", help: "Presses whose command or answer went out.")
        output.sample(prefix + "presses_carried_out_total", value: String(counters.pressesCarriedOut))
        output.family(prefix + "presses_dropped_total", type: "counter", help: "Presses not carried out, by reason.")
        for reason in PressDropReason.allCases {
            output.sample(prefix + "presses_dropped_total", labels: [("reason", reason.rawValue)],
                          value: String(counters.pressesDropped[reason] ?? 0))
        }
        output.family(prefix + "publishes_total", type: "counter", help: "Widget PATCHes finished, by HTTP status class.")
        for status in PublishStatusClass.allCases {
            output.sample(prefix + "publishes_total", labels: [("status", status.rawValue)],
                          value: String(counters.publishes[status] ?? 0))
        }
        histogram(&output, prefix + "press_to_command_latency_seconds", counters.pressToCommandLatency,
                  help: "Time from a press arriving to its command going out.")
        histogram(&output, prefix + "press_age_seconds", counters.pressAge,
                  help: "Age of a press on the server's clock when its command went out.")
        output.family(prefix + "reconnects_total", type: "counter", help: "Connections that came back after being lost, by kind.")
        for kind in ReconnectKind.allCases {
            output.sample(prefix + "reconnects_total", labels: [("kind", kind.rawValue)],
                          value: String(counters.reconnects[kind] ?? 0))
        }
        return output.text
    }

    private static func histogram(_ output: inout PrometheusText, _ name: String, _ histogram: LatencyHistogram, help: String) {
        output.family(name, type: "histogram", help: help)
        for bucket in histogram.cumulativeBuckets {
            output.sample(name + "_bucket", labels: [("le", bucket.le)], value: String(bucket.count))
        }
        output.sample(name + "_sum", value: PrometheusText.seconds(microseconds: histogram.sumUs))
        output.sample(name + "_count", value: String(histogram.count))
    }
}
