import BridgeCore
import ShellSupport
import Testing

@testable import BridgeDaemon

/// One fact at a time, as a batch of one (the daemon hands a batch's together).
extension DaemonMetrics {
    func record(_ observation: BridgeObservation) {
        var batch = Batch()
        batch.observations = [observation]
        record(batch)
    }

    func recordPressToCommandLatency(microseconds: Int64) {
        var batch = Batch()
        batch.pressToCommandLatenciesUs = [microseconds]
        record(batch)
    }
}

@Suite("Daemon metrics (Prometheus text)")
struct StatusMetricsTests {
    /// The value of the sample line `series` (name with labels), or nil.
    static func value(_ series: String, in text: String) -> String? {
        text.split(separator: "\n")
            .first(where: { $0.hasPrefix(series + " ") })
            .map { String($0.dropFirst(series.count + 1)) }
    }

    static let key = ActionKey(slug: "house", actionId: "porch")

    /// Issue 42 §2: a batch's facts are handed to the metrics together when the
    /// batch is done (one turn of their lock), not one by one as they happen.
    @Test func aBatchsFactsAreCountedTogetherWhenItIsDone() {
        let metrics = DaemonMetrics()
        let observers = DaemonObservers(supervisor: DaemonSupervisor(notifier: .disabled, log: LogSink(format: .journal)),
                                        metrics: metrics)
        observers.observe(.pressReceived(eventId: "e1"))
        observers.observe(.pressCarriedOut(eventId: "e1", action: Self.key, ageMs: 120))
        observers.pressReachedMQTT(latencyUs: 3_000)
        #expect(metrics.current == MetricsCounters(), "counted when the batch is done")
        let summary = BatchSummary(isMQTTConnected: true, isEventStreamConnected: true, tokenRefusedPhrase: nil,
                                   actionCount: 1, serverClockOffsetMs: 0)
        observers.afterBatch(summary)
        let counted = metrics.current
        #expect(counted.pressesReceived == 1 && counted.pressesCarriedOut == 1)
        #expect(counted.pressToCommandLatency.count == 1 && counted.pressAge.count == 1)
        observers.afterBatch(summary)
        #expect(metrics.current == counted, "each fact counted once")
    }

    @Test func freshMetricsShowEverySeriesAtZero() {
        let text = DaemonMetrics().prometheusText()
        #expect(Self.value("switchboard_bridge_presses_received_total", in: text) == "0")
        #expect(Self.value("switchboard_bridge_presses_carried_out_total", in: text) == "0")
        for reason in PressDropReason.allCases {
            #expect(Self.value("switchboard_bridge_presses_dropped_total{reason=\"\(reason.rawValue)\"}", in: text) == "0")
        }
        for status in PublishStatusClass.allCases {
            #expect(Self.value("switchboard_bridge_publishes_total{status=\"\(status.rawValue)\"}", in: text) == "0")
        }
        for kind in ReconnectKind.allCases {
            #expect(Self.value("switchboard_bridge_reconnects_total{kind=\"\(kind.rawValue)\"}", in: text) == "0")
        }
        #expect(Self.value("switchboard_bridge_press_to_command_latency_seconds_bucket{le=\"+Inf\"}", in: text) == "0")
        #expect(Self.value("switchboard_bridge_press_to_command_latency_seconds_count", in: text) == "0")
        #expect(Self.value("switchboard_bridge_press_to_command_latency_seconds_sum", in: text) == "0")
    }

    @Test func textFollowsTheExpositionFormat() {
        let metrics = DaemonMetrics()
        metrics.record(.pressReceived(eventId: "e1"))
        metrics.recordPressToCommandLatency(microseconds: 3_000)
        let problems = PrometheusFormatCheck.problems(in: metrics.prometheusText())
        #expect(problems == [])
    }

    @Test func pressesAreCountedByOutcome() {
        let metrics = DaemonMetrics()
        metrics.record(.pressReceived(eventId: "e1"))
        metrics.record(.pressReceived(eventId: "e2"))
        metrics.record(.pressReceived(eventId: "e3"))
        metrics.record(.pressCarriedOut(eventId: "e1", action: Self.key, ageMs: 120))
        metrics.record(.pressDropped(eventId: "e2", reason: .duplicate))
        metrics.record(.pressDropped(eventId: nil, reason: .malformed))
        let text = metrics.prometheusText()
        #expect(Self.value("switchboard_bridge_presses_received_total", in: text) == "3")
        #expect(Self.value("switchboard_bridge_presses_carried_out_total", in: text) == "1")
        #expect(Self.value("switchboard_bridge_presses_dropped_total{reason=\"duplicate\"}", in: text) == "1")
        #expect(Self.value("switchboard_bridge_presses_dropped_total{reason=\"malformed\"}", in: text) == "1")
        #expect(Self.value("switchboard_bridge_presses_dropped_total{reason=\"expired\"}", in: text) == "0")
        #expect(Self.value("switchboard_bridge_press_age_seconds_bucket{le=\"0.25\"}", in: text) == "1")
        #expect(Self.value("switchboard_bridge_press_age_seconds_bucket{le=\"0.1\"}", in: text) == "0")
        #expect(Self.value("switchboard_bridge_press_age_seconds_sum", in: text) == "0.12")
    }

    @Test(arguments: PressDropReason.allCases)
    func everyDropReasonHasItsOwnSeries(reason: PressDropReason) {
        let metrics = DaemonMetrics()
        metrics.record(.pressDropped(eventId: "x", reason: reason))
        #expect(metrics.current.pressesDropped == [reason: 1])
        let text = metrics.prometheusText()
        #expect(Self.value("switchboard_bridge_presses_dropped_total{reason=\"\(reason.rawValue)\"}", in: text) == "1")
    }

    @Test(arguments: [
        (200 as Int?, PublishStatusClass.success),
        (204, .success),
        (304, .redirect),
        (401, .clientError),
        (429, .clientError),
        (500, .serverError),
        (503, .serverError),
        (nil, .transport),
        (99, .other),
        (600, .other),
    ])
    func publishesAreCountedByStatusClass(status: Int?, expected: PublishStatusClass) {
        let metrics = DaemonMetrics()
        metrics.record(.patchFinished(slug: "house", status: status))
        #expect(metrics.current.publishes == [expected: 1])
        let text = metrics.prometheusText()
        #expect(Self.value("switchboard_bridge_publishes_total{status=\"\(expected.rawValue)\"}", in: text) == "1")
    }

    @Test func reconnectsAreCountedByKind() {
        let metrics = DaemonMetrics()
        metrics.recordReconnect(.mqtt)
        metrics.recordReconnect(.eventStream)
        metrics.recordReconnect(.eventStream)
        let text = metrics.prometheusText()
        #expect(Self.value("switchboard_bridge_reconnects_total{kind=\"mqtt\"}", in: text) == "1")
        #expect(Self.value("switchboard_bridge_reconnects_total{kind=\"event_stream\"}", in: text) == "2")
    }

    @Test func latencyHistogramIsCumulativeInSeconds() {
        let metrics = DaemonMetrics()
        for microseconds: Int64 in [500, 1_000, 1_001, 20_000_000, -40] {
            metrics.recordPressToCommandLatency(microseconds: microseconds)
        }
        let text = metrics.prometheusText()
        let name = "switchboard_bridge_press_to_command_latency_seconds"
        #expect(Self.value(name + "_bucket{le=\"0.001\"}", in: text) == "3")
        #expect(Self.value(name + "_bucket{le=\"0.0025\"}", in: text) == "4")
        #expect(Self.value(name + "_bucket{le=\"10\"}", in: text) == "4")
        #expect(Self.value(name + "_bucket{le=\"+Inf\"}", in: text) == "5")
        #expect(Self.value(name + "_count", in: text) == "5")
        #expect(Self.value(name + "_sum", in: text) == "20.002501")
        #expect(text.contains("# TYPE \(name) histogram\n"))
    }

    @Test(arguments: [
        (Int64(0), "0"),
        (1, "0.000001"),
        (1_000, "0.001"),
        (2_500, "0.0025"),
        (1_000_000, "1"),
        (12_345_678, "12.345678"),
        (-1_500, "-0.0015"),
    ])
    func secondsAreWrittenWithoutTrailingZeros(microseconds: Int64, expected: String) {
        #expect(PrometheusText.seconds(microseconds: microseconds) == expected)
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("a\"quote", "a\\\"quote"),
        ("back\\slash", "back\\\\slash"),
        ("two\nlines", "two\\nlines"),
        ("crlf\r\n", "crlf\r\\n"),
    ])
    func labelValuesAreEscaped(raw: String, escaped: String) {
        #expect(PrometheusText.escapeLabelValue(raw) == escaped)
        var text = PrometheusText()
        text.sample("m", labels: [("l", raw)], value: "1")
        #expect(text.text == "m{l=\"\(escaped)\"} 1\n")
    }

    @Test func helpTextIsEscaped() {
        var text = PrometheusText()
        text.family("m", type: "counter", help: "a\\b\nc")
        #expect(text.text == "# HELP m a\\\\b\\nc\n# TYPE m counter\n")
    }

    @Test func memoryStaysBoundedWhateverTheTraffic() {
        let metrics = DaemonMetrics()
        let linesBefore = metrics.prometheusText().split(separator: "\n").count
        for index in 0..<5_000 {
            metrics.record(.pressReceived(eventId: "event-\(index)"))
            metrics.record(.pressDropped(eventId: "event-\(index)", reason: .duplicate))
            metrics.record(.patchFinished(slug: "widget-\(index)", status: 200 + index % 400))
            metrics.recordPressToCommandLatency(microseconds: Int64(index) * 997)
        }
        let counters = metrics.current
        #expect(counters.publishes.count <= PublishStatusClass.allCases.count)
        #expect(counters.pressesDropped.count <= PressDropReason.allCases.count)
        #expect(metrics.prometheusText().split(separator: "\n").count == linesBefore)
    }

    @Test func countsAreExactUnderConcurrentUse() throws {
        let metrics = DaemonMetrics()
        let threadCount = 8
        let perThread = 2_000
        var threads: [ShellThread] = []
        for threadIndex in 0..<threadCount {
            threads.append(try ShellThread {
                for index in 0..<perThread {
                    metrics.record(.pressReceived(eventId: "\(threadIndex)-\(index)"))
                    metrics.recordPressToCommandLatency(microseconds: Int64(index))
                    if index % 2 == 0 { metrics.recordReconnect(.mqtt) }
                }
            })
        }
        for thread in threads { thread.join() }
        let counters = metrics.current
        #expect(counters.pressesReceived == UInt64(threadCount * perThread))
        #expect(counters.pressToCommandLatency.count == UInt64(threadCount * perThread))
        #expect(counters.reconnects[.mqtt] == UInt64(threadCount * perThread / 2))
    }
}
