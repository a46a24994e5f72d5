import BridgeDaemon
import BridgeDemo
import Glibc
import ShellSupport

/// The entry point: the commands of `switchboard-bridge`, each parsed and run by the one
/// command line tool (`CommandLineTool`); a command is added here and nowhere else in the code.
LargeAllocations.returnToTheSystemWhenFreed()
let tool = CommandLineTool(commands: [
    RunCommand.self, CheckCommand.self, RenderCommand.self, WatchCommand.self, DiscoverCommand.self, DemoCommand.self,
])
exit(tool.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current))
