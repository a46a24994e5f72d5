#if canImport(Glibc)
import Glibc
#endif
import AiviSim
import CommandLineParsing
import ShellSupport
import Synchronization

/// Set by SIGINT/SIGTERM; the main thread polls it and stops the simulator.
let isStopRequested = Atomic<Bool>(false)

func installStopHandlers() {
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGINT)
    sigaddset(&stopSignals, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    for signalNumber in [SIGINT, SIGTERM] {
        signal(signalNumber) { _ in isStopRequested.store(true, ordering: .relaxed) }
    }
}

switch SimArguments.parse(Array(CommandLine.arguments.dropFirst()), program: SimArguments.program) {
case .exit(let status, let text):
    StandardErrorWriter.writeLine(text, toDescriptor: status == 0 ? 1 : 2)
    exit(status)
case .run(let arguments):
    installStopHandlers()
    let clock: any SimClock = arguments.usesManualClock ? SimulatedBoardClock.service() : SystemClock()
    do {
        let simulator = try AiviSimulator.start(settings: arguments.settings, clock: clock)
        StandardErrorWriter.writeLine("aivi-sim: listening on \(simulator.baseURL) for widgets "
                  + arguments.settings.widgetSlugs.joined(separator: ", ")
                  + (arguments.usesManualClock ? " (manual clock)" : ""), toDescriptor: 1)
        while !isStopRequested.load(ordering: .relaxed) { usleep(100_000) }
        simulator.stop()
        StandardErrorWriter.writeLine("aivi-sim: stopped", toDescriptor: 1)
    } catch {
        StandardErrorWriter.writeLine("aivi-sim: cannot start: \(error)", toDescriptor: 2)
        exit(1)
    }
}
