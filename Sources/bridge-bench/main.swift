import Glibc
import ShellSupport

/// `bridge-bench`: measures the release `switchboard-bridge` against a private
/// mosquitto and the in-process Aivi simulator, and prints one table (issue 7).
let arguments: BenchArguments
switch BenchArguments.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed): arguments = parsed
case .failure(let failure):
    StandardError.line("bridge-bench: \(failure)\n\(BenchArguments.usage)")
    exit(2)
}
let bridgeExecutable = arguments.bridgePath ?? ((ProcFile.ownDirectory() ?? ".") + "/switchboard-bridge")
guard access(bridgeExecutable, X_OK) == 0 else {
    StandardError.line("bridge-bench: no switchboard-bridge binary at \(bridgeExecutable); run `swift build -c release` first")
    exit(2)
}
let sizes = arguments.isQuick ? BenchSizes.quick : BenchSizes.full
do {
    let table = try BenchRun.run(sizes: sizes, bridgeExecutable: bridgeExecutable, brokerTCPNoDelay: arguments.brokerTCPNoDelay)
    let mode = arguments.isQuick ? " --quick (small runs: the times are not the benchmark)" : ""
    let broker = arguments.brokerTCPNoDelay ? ", broker with set_tcp_nodelay true" : ", broker with mosquitto's defaults"
    print("bridge-bench\(mode)\(broker), bridge \(bridgeExecutable)")
    print(table.rendered())
    print("\(table.missedCount) target(s) missed")
    fflush(nil)
    exit(0)
} catch {
    StandardError.line("bridge-bench: \(error)")
    exit(1)
}
