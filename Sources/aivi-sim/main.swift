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

/// Writes a line straight to a file descriptor (unbuffered, so a parent sees it at once).
func writeLine(_ text: String, to descriptor: Int32) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

switch SimArguments.parse(Array(CommandLine.arguments.dropFirst()), program: SimArguments.program) {
case .exit(let status, let text):
    writeLine(text, to: status == 0 ? 1 : 2)
    exit(status)
case .run(let arguments):
    installStopHandlers()
    let clock: any SimClock = arguments.usesManualClock ? SimulatedBoardClock.service() : SystemClock()
    do {
        let simulator = try AiviSimulator.start(settings: arguments.settings, clock: clock)
        writeLine("aivi-sim: listening on \(simulator.baseURL) for widgets "
                  + arguments.settings.widgetSlugs.joined(separator: ", ")
                  + (arguments.usesManualClock ? " (manual clock)" : ""), to: 1)
        while !isStopRequested.load(ordering: .relaxed) { usleep(100_000) }
        simulator.stop()
        writeLine("aivi-sim: stopped", to: 1)
    } catch {
        writeLine("aivi-sim: cannot start: \(error)", to: 2)
        exit(1)
    }
}
