import BridgeDaemon
import BridgeDemo
import Glibc
import ShellSupport

/// The entry point: parse the command line, hand it to the composition root.
LargeAllocations.returnToTheSystemWhenFreed()
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current
let parsed: CommandLineArguments
do {
    parsed = try CommandLineArguments.parse(arguments)
} catch {
    StandardErrorWriter.writeLine("switchboard-bridge: \(error)")
    exit(2)
}
if parsed.command == .demo {
    exit(DemoCommand.run(webPort: parsed.port, configPath: parsed.configPath, listen: parsed.listen))
}
exit(BridgeCommand.run(parsed, environment: environment))
