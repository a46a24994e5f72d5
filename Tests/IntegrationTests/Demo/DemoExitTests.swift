import Foundation
import Testing
import TestSupport

/// The demo as a newcomer meets it: its help, a port in use, another address,
/// and Ctrl-C from a terminal (a signal to the whole process group).
@Suite("The demo's edges", .serialized)
struct DemoExitTests {
    static let path = "/usr/bin:/bin:/usr/sbin:/sbin"

    static func demo(_ arguments: [String], in directory: TemporaryDirectory, name: String, wrapper: [String] = [],
                     tmpdir: String? = nil) throws -> ChildProcess {
        let command = wrapper + [EndToEndHarness.bridgeExecutable, "demo", "--config", DemoTests.packageRoot + "/config/demo.yaml"] + arguments
        var environment = ["PATH": path]
        if let tmpdir { environment["TMPDIR"] = tmpdir }
        return try ChildProcess(executable: command[0], arguments: Array(command.dropFirst()), directory: directory.path,
                                name: name, environment: environment)
    }

    /// The processes whose parent is `pid` (from /proc/N/stat).
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> pid_t? in
            guard let child = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    @Test func helpListsTheDemosOptions() throws {
        let directory = try TemporaryDirectory(prefix: "demo-help")
        let help = try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: ["demo", "--help"], directory: directory.path,
                                    name: "help", environment: ["PATH": Self.path])
        #expect(help.waitForExit(timeoutSeconds: 10) == 0)
        #expect(help.stdout.contains("Usage: switchboard-bridge demo [--port PORT] [--listen ADDRESS] [--config PATH]"), "\(help.stdout)")
    }

    @Test func aPortInUseIsSaidInWordsAndAnotherAddressIsWarnedAbout() throws {
        let directory = try TemporaryDirectory(prefix: "demo-port")
        let port = try LoopbackPort.free()
        let first = try Self.demo(["--port", String(port)], in: directory, name: "demo-first")
        defer { first.stop() }
        #expect(waitUntil(timeoutSeconds: 20) { first.stdout.contains("http://127.0.0.1:\(port)/") || !first.isRunning }, "\(first.stderr)")
        let second = try Self.demo(["--port", String(port), "--listen", "0.0.0.0"], in: directory, name: "demo-second")
        #expect(second.waitForExit(timeoutSeconds: 20) == 1)
        #expect(second.stderr.contains("port \(port) is in use"), "\(second.stderr)")
        #expect(!second.stderr.contains("errno 98"))
        #expect(second.stderr.contains("warning: the demo page will listen on 0.0.0.0 and has no authentication"), "\(second.stderr)")
        #expect(!first.stderr.contains("no authentication"), "loopback is not warned about")
    }

    /// Issue 22 item 13: `--listen localhost` was refused ("not an IP address literal")
    /// though `status.listen: localhost:PORT` works; one parser reads both.
    @Test func listenLocalhostServesThePageOnTheLoopback() throws {
        let directory = try TemporaryDirectory(prefix: "demo-localhost")
        let port = try LoopbackPort.free()
        let demo = try Self.demo(["--port", String(port), "--listen", "localhost"], in: directory, name: "demo-localhost")
        defer { demo.stop() }
        #expect(waitUntil(timeoutSeconds: 20) { demo.stdout.contains("http://127.0.0.1:\(port)/") || !demo.isRunning },
                "\(demo.stdout)\n\(demo.stderr)")
        #expect(demo.isRunning)
        #expect(!demo.stderr.contains("no authentication"), "localhost is the loopback: not warned about")
        let page = try ChildProcess(executable: "/usr/bin/curl", arguments: ["-sS", "--max-time", "10", "http://127.0.0.1:\(port)/"],
                                    directory: directory.path, name: "curl-demo", environment: ["PATH": Self.path])
        #expect(page.waitForExit(timeoutSeconds: 15) == 0, "\(page.stderr)")
        #expect(page.stdout.contains("<html") || page.stdout.contains("<!DOCTYPE"), "\(page.stdout.prefix(200))")
        let refused = try Self.demo(["--listen", "my-host"], in: directory, name: "demo-bad-listen")
        #expect(refused.waitForExit(timeoutSeconds: 10) == 2)
        #expect(refused.stderr.contains("--listen my-host: not an IP address literal or localhost"), "\(refused.stderr)")
    }

    /// Issue 22 item 13: the installed package's `demo` (no --config, run from anywhere)
    /// failed with "cannot read config/demo.yaml" though the package ships
    /// examples/demo.yaml; it now finds it under the binary's prefix (/usr/bin →
    /// /usr/share/doc/switchboard-bridge/examples), laid out here as build-deb does.
    @Test func theInstalledDemoFindsTheExampleConfigUnderItsPrefix() throws {
        let directory = try TemporaryDirectory(prefix: "demo-installed")
        let prefix = directory.file("usr")
        let examples = prefix + "/share/doc/switchboard-bridge/examples"
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: examples, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory.file("home"), withIntermediateDirectories: true)
        let binary = prefix + "/bin/switchboard-bridge"
        try FileManager.default.copyItem(atPath: EndToEndHarness.bridgeExecutable, toPath: binary)
        let command = { (name: String, arguments: [String]) throws -> ChildProcess in
            // From a folder without config/ (env -C: the child's working directory).
            try ChildProcess(executable: "/usr/bin/env", arguments: ["-C", directory.file("home"), binary, "demo"] + arguments,
                             directory: directory.path, name: name, environment: ["PATH": Self.path])
        }
        // Nothing installed yet: the error says what to do and where the package puts it.
        let missing = try command("demo-no-example", [])
        defer { missing.stop() }
        #expect(missing.waitForExit(timeoutSeconds: 20) == 1)
        #expect(missing.stderr.contains("cannot read config/demo.yaml: run the demo from the project's folder, or pass --config PATH "
                                        + "(the package installs /usr/share/doc/switchboard-bridge/examples/demo.yaml)"), "\(missing.stderr)")

        try FileManager.default.copyItem(atPath: DemoTests.packageRoot + "/config/demo.yaml", toPath: examples + "/demo.yaml")
        let port = try LoopbackPort.free()
        let demo = try command("demo-installed", ["--port", String(port)])
        defer { demo.stop() }
        #expect(waitUntil(timeoutSeconds: 20) { demo.stdout.contains("http://127.0.0.1:\(port)/") || !demo.isRunning },
                "\(demo.stdout)\n\(demo.stderr)")
        #expect(demo.isRunning, "\(demo.stderr)")
        #expect(demo.stdout.contains("config  \(examples)/demo.yaml"), "\(demo.stdout)")
    }

    @Test func ctrlCStopsQuietlyAndRemovesTheTemporaryDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "demo-ctrlc")
        let tmpdir = directory.file("tmp")
        try FileManager.default.createDirectory(atPath: tmpdir, withIntermediateDirectories: true)
        let port = try LoopbackPort.free()
        // setsid: the demo leads its own process group, as in a terminal.
        let demo = try Self.demo(["--port", String(port)], in: directory, name: "demo-ctrlc", wrapper: ["/usr/bin/setsid"], tmpdir: tmpdir)
        defer { demo.stop() }
        #expect(waitUntil(timeoutSeconds: 20) { demo.stdout.contains("http://127.0.0.1:\(port)/") || !demo.isRunning }, "\(demo.stderr)")
        #expect(waitUntil(timeoutSeconds: 10) { DemoTests.pageLog(port: port).contains("published demo") })
        #expect(try !FileManager.default.contentsOfDirectory(atPath: tmpdir).isEmpty, "the demo works in TMPDIR")
        // Its broker must not share the terminal's process group, or Ctrl-C kills it
        // before the bridge stops, and the bridge logs a lost connection.
        let children = Self.children(of: demo.pid)
        #expect(!children.isEmpty, "the demo runs a private mosquitto")
        for child in children { #expect(getpgid(child) != getpgid(demo.pid), "child \(child) is in the demo's process group") }
        let before = demo.stderr.count
        kill(-demo.pid, SIGINT)   // what Ctrl-C does: the whole foreground process group
        #expect(demo.waitForExit(timeoutSeconds: 15) == 0)
        let atExit = String(demo.stderr.dropFirst(before))
        #expect(!atExit.contains("warning") && !atExit.contains("disconnected"), "spurious messages at Ctrl-C:\n\(atExit)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmpdir).isEmpty, "the temporary directory is removed")
    }
}
