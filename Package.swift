// swift-tools-version:6.0
import PackageDescription

/// switchboard-bridge: MQTT devices as Switchboard tiles on the Aivi service.
///
/// Layout (functional core, imperative shell; the tree with file counts is in
/// CONTRIBUTING.md, "What is where"):
/// - `BridgeCore`: pure decisions, one folder per concept: `Core` (`Bridge.handle`, its
///   inputs and effects), `Presses`, `Devices` (`Reading`, `Presets`), `Publishing`,
///   `Connections`, `Status` (the read model and its `Page`), `Config` (`Rules`),
///   `Discovery`, `Watch`, `Time`, `Persistence`, `Text`, `JSON`, `YAML`. No Glibc, no C
///   modules, no clock, no threads.
/// - `CMosquitto`, `CCurl`: Debian's C libraries as system library targets.
/// - `MQTTShell` (all libmosquitto calls), `CurlShell` (all libcurl calls: PATCH and
///   the event stream), `HTTPServer` (a small POSIX-socket HTTP/1.1 server),
///   `ShellSupport` (the event loop, clocks, processes).
/// - `CommandLineParsing`: the one command-line parser, option declarations and `--help` of
///   every program of the package (`switchboard-bridge`, `aivi-sim`, `bridge-bench`). Pure.
/// - `BridgeDaemon`: the one composition root, used by `main` and by the tests.
/// - `AiviSim`: a faithful simulator of the Aivi service, phones included.
/// - Tests sit with what they test: `BridgeCoreTests` (pure: only `CoreTestSupport`, no C
///   library needed), `BridgeDaemonTests` (the daemon's units, no process nor broker),
///   `ShellTests`, `AiviSimTests`, and `IntegrationTests` (real processes, brokers, browsers).
let package = Package(
    name: "switchboard-bridge",
    products: [
        .executable(name: "switchboard-bridge", targets: ["switchboard-bridge"]),
        .executable(name: "aivi-sim", targets: ["aivi-sim"]),
        .executable(name: "bridge-bench", targets: ["bridge-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "BridgeCore"),
        .target(name: "CommandLineParsing", dependencies: ["BridgeCore"]),
        .target(name: "ShellSupport"),
        .target(name: "HTTPServer", dependencies: ["ShellSupport"]),
        .target(name: "MQTTShell", dependencies: ["CMosquitto", "ShellSupport", "BridgeCore"]),
        .target(name: "CurlShell", dependencies: ["CCurl", "ShellSupport", "BridgeCore"]),
        .target(name: "AiviSim", dependencies: ["BridgeCore", "HTTPServer", "ShellSupport"]),
        .target(
            name: "BridgeDaemon",
            dependencies: ["BridgeCore", "CommandLineParsing", "MQTTShell", "CurlShell", "HTTPServer", "ShellSupport"]
        ),
        .target(
            name: "BridgeDemo",
            dependencies: ["BridgeDaemon", "AiviSim", "HTTPServer", "MQTTShell", "BridgeCore", "CommandLineParsing", "ShellSupport"]
        ),
        .executableTarget(name: "aivi-sim", dependencies: ["AiviSim", "CommandLineParsing", "ShellSupport"]),
        .executableTarget(
            name: "switchboard-bridge",
            dependencies: ["BridgeCore", "BridgeDaemon", "BridgeDemo", "ShellSupport"]
        ),
        .executableTarget(
            name: "bridge-bench",
            dependencies: ["AiviSim", "BridgeCore", "CommandLineParsing", "HTTPServer", "MQTTShell", "ShellSupport"]
        ),
        .target(name: "CoreTestSupport", path: "Tests/CoreTestSupport"),
        .target(name: "TestSupport", dependencies: ["AiviSim", "MQTTShell", "ShellSupport"], path: "Tests/Support"),
        .testTarget(name: "BridgeCoreTests", dependencies: ["BridgeCore", "CoreTestSupport"]),
        .testTarget(name: "AiviSimTests", dependencies: ["AiviSim", "HTTPServer", "ShellSupport", "TestSupport"]),
        .testTarget(
            name: "ShellTests",
            dependencies: ["MQTTShell", "CurlShell", "HTTPServer", "AiviSim", "BridgeCore", "ShellSupport", "TestSupport"]
        ),
        .testTarget(
            name: "BridgeDaemonTests",
            dependencies: ["BridgeDaemon", "BridgeCore", "MQTTShell", "CurlShell", "ShellSupport", "AiviSim", "TestSupport"]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "BridgeDaemon", "BridgeDemo", "BridgeCore", "AiviSim", "MQTTShell", "CurlShell", "HTTPServer",
                "CommandLineParsing", "CoreTestSupport", "TestSupport", "aivi-sim", "bridge-bench",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
