import AiviSim
import ShellSupport

/// What a recorder of the simulator keeps (`SimRecorder`'s PATCHes and frames for the
/// bench, `SoakRecorder`'s last contents and first writes for the soak): the one way the
/// bench listens to the simulator, each observation noted as it happens and stamped with
/// the bench's one clock.
protocol SimObservationRecords {
    init()
    /// What `observation`, seen at `nowUs` (`MonotonicClock.nowUs()`), changes.
    mutating func note(_ observation: SimObservation, atUs nowUs: Int64)
}

extension SimObservationRecords {
    /// Records of everything `simulator` observes from now on, behind one lock (whose
    /// `wait` a reader can use to wait for a record).
    static func recording(_ simulator: AiviSimulator) -> ConditionLock<Self> {
        let records = ConditionLock(Self())
        simulator.observe { [records] observation in
            let nowUs = MonotonicClock.nowUs()
            records.withLock { $0.note(observation, atUs: nowUs) }
        }
        return records
    }
}
