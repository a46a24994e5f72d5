import Glibc

/// The one way the project starts a process (the demo's broker, the bench's
/// bridge, every test's child): `posix_spawn` with stdin from /dev/null, an
/// empty signal mask and default signal handlers (the daemon blocks
/// SIGTERM/SIGINT/SIGHUP in all threads but its loop's, and a test runner's threads block most
/// signals; a child inheriting that could not be stopped), and no descriptor
/// but 0, 1 and 2 (a parent's sockets must not outlive its own close in a child).
public enum ProcessSpawner {
    /// Where a child's stdout or stderr goes.
    public enum Output: Sendable {
        /// A file, created or truncated, mode 0600.
        case file(String)
        /// A descriptor of the parent's (a pipe's write end).
        case descriptor(Int32)
    }

    /// Starts `executable` with `arguments`; `stderr` nil shares `stdout`;
    /// `environment` nil inherits this process's; `ownProcessGroup` puts the
    /// child in a group of its own (a terminal's Ctrl-C then reaches only the
    /// parent, which stops its children in order). Returns the child's PID.
    public static func spawn(executable: String, arguments: [String], stdout: Output, stderr: Output? = nil,
                             environment: [String: String]? = nil, ownProcessGroup: Bool = false) throws(ProcessStartError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        redirect(1, to: stdout, &actions)
        if let stderr { redirect(2, to: stderr, &actions) } else { posix_spawn_file_actions_adddup2(&actions, 1, 2) }
        closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaultSignals = sigset_t()
        sigfillset(&defaultSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = envp.map { posix_spawn(&child, executable, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw .cannotStart(executable, String(cString: strerror(result))) }
        return child
    }

    private static func redirect(_ descriptor: Int32, to output: Output, _ actions: inout posix_spawn_file_actions_t) {
        switch output {
        case .file(let path): posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .descriptor(let source): posix_spawn_file_actions_adddup2(&actions, source, descriptor)
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up at
    /// run time because the Glibc module does not export it.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        _ = closeFrom(&actions, 3)
    }
}
