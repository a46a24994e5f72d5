import BridgeCore
import CMosquitto
import ShellSupport

/// A broker that keeps its TCP connection but answers nothing (stopped with
/// SIGSTOP, swapped out, wedged): the kernel still takes what the client
/// writes, so without this the client kept "connected" until libmosquitto's
/// keepalive gave up (1.5 × `keepalive_s`, 55 s at 30 s), and every press
/// meanwhile waited for its confirm timeout.
///
/// Every packet the broker must answer is timed: a QoS 1 or 2 PUBLISH (its
/// PUBACK or PUBCOMP) and a probe, an UNSUBSCRIBE of a topic never subscribed
/// (its UNSUBACK: nothing else changes on the broker). A probe follows every
/// QoS 0 publish (a pulse has no answer of its own), and goes out when the
/// link has been idle for `keepaliveCheckMs`. When one stays unanswered for
/// `silentBrokerMs`, the broker is silent: the connection is dropped with the
/// handle (libmosquitto's unsent and unacknowledged messages go with it, so
/// nothing is resent late on the next connection), `.disconnected` is
/// reported (the core then answers presses at once with the true state) and
/// the client reconnects with its backoff.
extension MQTTClient {
    /// How long the broker may leave a packet unanswered: 3 s (a loopback or LAN
    /// broker answers in milliseconds; a Pi's SD card stalling mosquitto's
    /// persistence for a second or two stays under it).
    static let silentBrokerMs: Int64 = BridgeCore.MQTTSettings.silentBrokerMs
    /// The topic probes unsubscribe from (never subscribed).
    static let probeTopic = "switchboard-bridge/probe"
    /// The most answers awaited at once (a silent broker is found long before).
    static let maxAwaitedAnswers = 1_024

    /// Times the answer to a publish just made: a
    /// QoS 1 or 2 one's own, a QoS 0 one's by a probe after it.
    func awaitAnswer(to messageId: Int32, qos: MQTTQoS, on current: OpaquePointer) {
        let nowMs = settings.clock.monotonicMs()
        guard qos == .atMostOnce else { return noteAwaited(messageId, nowMs: nowMs) }
        sendProbe(on: current, nowMs: nowMs)
    }

    /// Sends a probe: an UNSUBSCRIBE the broker answers with an UNSUBACK.
    func sendProbe(on current: OpaquePointer, nowMs: Int64) {
        var messageId: Int32 = 0
        guard mosquitto_unsubscribe(current, &messageId, Self.probeTopic) == MOSQ_ERR_SUCCESS.rawValue else { return }
        state.lastProbeMs = nowMs
        noteAwaited(messageId, nowMs: nowMs)
    }

    private func noteAwaited(_ messageId: Int32, nowMs: Int64) {
        if state.awaitedAnswers.count < Self.maxAwaitedAnswers { state.awaitedAnswers[messageId] = nowMs }
    }

    /// The broker answered the packet `messageId` (a PUBACK, PUBCOMP or UNSUBACK).
    func didAnswer(messageId: Int32) {
        if !state.awaitedAnswers.isEmpty { state.awaitedAnswers[messageId] = nil }
    }

    /// When the oldest unanswered packet makes the broker silent; nil when none is awaited.
    var silenceDeadlineMs: Int64? {
        state.awaitedAnswers.values.min().map { $0 + Self.silentBrokerMs }
    }

    /// Whether an idle link is due a probe (nothing awaited, none for `keepaliveCheckMs`).
    func isProbeDue(nowMs: Int64) -> Bool {
        state.awaitedAnswers.isEmpty && nowMs - state.lastProbeMs >= keepaliveCheckMs
    }
}
