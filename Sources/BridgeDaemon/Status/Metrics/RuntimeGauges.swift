import BridgeCore

/// The connection gauges of `/metrics`, read from the latest snapshot.
enum RuntimeGauges {
    static func prometheusText(for snapshot: BridgeSnapshot?) -> String {
        guard let snapshot else { return "" }
        let prefix = DaemonMetrics.prefix
        var output = PrometheusText()
        output.family(prefix + "mqtt_connected", type: "gauge", help: "1 while the MQTT connection is up.")
        output.sample(prefix + "mqtt_connected", value: snapshot.isMQTTConnected ? "1" : "0")
        output.family(prefix + "event_stream_connected", type: "gauge", help: "1 while the event stream is connected.")
        output.sample(prefix + "event_stream_connected", value: snapshot.isEventStreamConnected ? "1" : "0")
        output.family(prefix + "server_clock_offset_seconds", type: "gauge",
                      help: "The Aivi server's clock minus the board's clock.")
        let offsetUs = snapshot.serverClockOffsetMs.multipliedReportingOverflow(by: 1_000)
        output.sample(prefix + "server_clock_offset_seconds",
                      value: PrometheusText.seconds(microseconds: offsetUs.overflow ? 0 : offsetUs.partialValue))
        return output.text
    }
}
