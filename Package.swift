// swift-tools-version:6.0
import PackageDescription

/// switchboard-bridge: MQTT devices as Switchboard tiles on the Aivi service.
///
/// Layout (functional core, imperative shell):
/// - `BridgeCore`: pure decisions (config language, device mapping, rendering, the
///   `Bridge` state machine). No Glibc, no C modules, no clock, no threads.
/// - `CMosquitto`, `CCurl`: Debian's C libraries as system library targets.
/// - `MQTTShell` (all libmosquitto calls), `CurlShell` (all libcurl calls: PATCH and
///   the event stream), `HTTPServer` (a small POSIX-socket HTTP/1.1 server).
/// - `BridgeDaemon`: the one composition root, used by `main` and by the tests.
/// - `AiviSim`: a faithful simulator of the Aivi service, phones included.
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
        .target(name: "ShellSupport"),
        .target(name: "HTTPServer", dependencies: ["ShellSupport"]),
        .target(name: "MQTTShell", dependencies: ["CMosquitto", "ShellSupport", "BridgeCore"]),
        .target(name: "CurlShell", dependencies: ["CCurl", "ShellSupport", "BridgeCore"]),
        .target(name: "AiviSim", dependencies: ["BridgeCore", "HTTPServer", "ShellSupport"]),
        .target(
            name: "BridgeDaemon",
            dependencies: ["BridgeCore", "MQTTShell", "CurlShell", "HTTPServer", "ShellSupport"]
        ),
        .target(
            name: "BridgeDemo",
            dependencies: ["BridgeDaemon", "AiviSim", "HTTPServer", "MQTTShell", "BridgeCore", "ShellSupport"]
        ),
        .executableTarget(name: "aivi-sim", dependencies: ["AiviSim"]),
        .executableTarget(
            name: "switchboard-bridge",
            dependencies: ["BridgeCore", "BridgeDaemon", "BridgeDemo", "ShellSupport"]
        ),
        .executableTarget(
            name: "bridge-bench",
            dependencies: ["AiviSim", "BridgeCore", "HTTPServer", "MQTTShell", "ShellSupport"]
        ),
        .target(name: "TestSupport", dependencies: ["AiviSim", "MQTTShell", "ShellSupport"], path: "Tests/Support"),
        .testTarget(name: "BridgeCoreTests", dependencies: ["BridgeCore", "TestSupport"]),
        .testTarget(name: "AiviSimTests", dependencies: ["AiviSim", "HTTPServer", "ShellSupport", "TestSupport"]),
        .testTarget(
            name: "ShellTests",
            dependencies: ["MQTTShell", "CurlShell", "HTTPServer", "AiviSim", "BridgeCore", "ShellSupport", "TestSupport"]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["BridgeDaemon", "BridgeDemo", "BridgeCore", "AiviSim", "MQTTShell", "CurlShell", "HTTPServer", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
