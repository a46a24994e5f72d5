import Foundation
import Glibc
import ShellSupport
import Testing
import TestSupport

/// The one spawner (issue 23: four posix_spawn wrappers before): whatever the
/// parent blocks or holds open, the child starts clean.
@Suite("ProcessSpawner")
struct ProcessSpawnerTests {
    @Test func theChildGetsNoBlockedSignalAndNoDescriptorButZeroToTwo() throws {
        let directory = try TemporaryDirectory(prefix: "spawner")
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0, "a descriptor the parent holds open, not close-on-exec")
        defer { pipeEnds.forEach { close($0) } }
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        // grep reads its own mask (a shell blocks signals while it forks).
        let maskPath = directory.file("mask.out"), outputPath = directory.file("child.out")
        let maskPid = try ProcessSpawner.spawn(executable: "/bin/grep", arguments: ["SigBlk", "/proc/self/status"], stdout: .file(maskPath))
        let pid = try ProcessSpawner.spawn(executable: "/bin/sh", arguments: ["-c", "ls /proc/$$/fd; read line || echo stdin-empty"],
                                           stdout: .file(outputPath))
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        var status: Int32 = 0
        #expect(waitpid(maskPid, &status, 0) == maskPid)
        #expect(waitpid(pid, &status, 0) == pid)
        let mask = try String(contentsOfFile: maskPath, encoding: .utf8)
        #expect(mask == "SigBlk:\t0000000000000000\n", "the parent blocked SIGTERM; the child does not")
        let output = try String(contentsOfFile: outputPath, encoding: .utf8)
        let descriptors = output.split(separator: "\n").filter { $0.allSatisfy(\.isNumber) }
        #expect(descriptors.sorted() == ["0", "1", "2"], "\(output)")
        #expect(output.contains("stdin-empty"), "stdin is /dev/null")
    }
}
