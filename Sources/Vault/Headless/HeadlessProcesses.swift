// Starting and stopping the headless keyring's two programs: `dbus-daemon --session` on
// hostbook's private socket, and `gnome-keyring-daemon --unlock --components=secrets
// --foreground` on that bus with the passphrase written to its stdin (never argv, the
// environment or a file). Both get a session of their own (a closed SSH session's hangup
// does not reach them), stdio on /dev/null and no other descriptor of hostbook's: they
// outlive the hostbook that started them.
#if canImport(Glibc)
import Glibc
#endif
import System
import SecureMemory

enum HeadlessProcesses {
    /// How long each start may take before it counts as failed (polls of 10 ms).
    static let readyPolls = 1_000

    /// Starts the bus on `socket`; returns once it listens (it printed its address).
    static func startBus(socket: String, environment: [String: String]) throws(VaultError) -> pid_t {
        let exe = try program("dbus-daemon", package: "dbus-daemon", environment: environment)
        let ready: UnixPipe
        do { ready = try UnixPipe() } catch { throw VaultError(.failed, "cannot start dbus-daemon: \(error)") }
        var childEnvironment = environment
        childEnvironment["DBUS_SESSION_BUS_ADDRESS"] = nil
        var spawnOptions = Spawn.Options(
            fileActions: Spawn.Options.nullInput(output: true)
                + [.open(STDERR_FILENO, path: "/dev/null", flags: O_WRONLY), .duplicate(ready.writeEnd, to: 3)],
            defaultSignals: [SIGPIPE], signalMask: [], newSession: true, environment: Self.strings(childEnvironment))
        spawnOptions.inheritNothing = true
        let pid: pid_t
        do {
            pid = try Spawn.start(exe, [exe, "--session", "--address=" + HeadlessBus.address(ofSocket: socket),
                                        "--nofork", "--nopidfile", "--print-address=3"], spawnOptions)
        } catch {
            ready.close()
            throw VaultError(.failed, "cannot run \(exe): \(error)")
        }
        close(ready.writeEnd)
        defer { close(ready.readEnd) }
        // It prints its address once it listens; an end of file first means it failed.
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        for _ in 0..<readyPolls where !line.contains(UInt8(ascii: "\n")) {
            guard let readable = try? Poll.wait(ready.readEnd, events: Int16(POLLIN), timeoutMilliseconds: 10) else { break }
            if !readable { continue }
            let n = (try? buffer.withUnsafeMutableBytes { b in try FileDescriptor(ready.readEnd).read(into: b) }) ?? 0
            if n == 0 { break }
            line += buffer[0..<n]
        }
        guard line.contains(UInt8(ascii: "\n")) else {
            stop(pid, expecting: "dbus-daemon")
            throw VaultError(.failed, "dbus-daemon did not start a bus at \(socket)",
                             hint: "Run 'dbus-daemon --session --address=unix:path=/tmp/test-bus --nofork' to see why.")
        }
        return pid
    }

    /// Starts gnome-keyring-daemon on the bus at `address`, the passphrase on its stdin.
    static func startKeyring(address: String, environment: [String: String],
                             passphrase: SecretBytes) throws(VaultError) -> pid_t {
        let exe = try program("gnome-keyring-daemon", package: "gnome-keyring", environment: environment)
        let input: UnixPipe
        do { input = try UnixPipe() } catch { throw VaultError(.failed, "cannot start gnome-keyring-daemon: \(error)") }
        var childEnvironment = environment
        childEnvironment["DBUS_SESSION_BUS_ADDRESS"] = address
        var options = Spawn.Options(
            fileActions: [.duplicate(input.readEnd, to: STDIN_FILENO),
                          .open(STDOUT_FILENO, path: "/dev/null", flags: O_WRONLY),
                          .open(STDERR_FILENO, path: "/dev/null", flags: O_WRONLY)],
            defaultSignals: [SIGPIPE], signalMask: [], newSession: true, environment: Self.strings(childEnvironment))
        options.inheritNothing = true
        let pid: pid_t
        do {
            pid = try Spawn.start(exe, [exe, "--unlock", "--components=secrets", "--foreground"], options)
        } catch {
            input.close()
            throw VaultError(.failed, "cannot run \(exe): \(error)")
        }
        close(input.readEnd)
        // It reads the passphrase to the end of file. A daemon that ended first makes this
        // fail (EPIPE, SIGPIPE is ignored): the wait for its bus name says why.
        _ = try? passphrase.withUnsafeBytes { bytes in try FileDescriptor(input.writeEnd).writeAll(bytes) }
        close(input.writeEnd)
        return pid
    }

    /// Ends `pid` (SIGTERM, then SIGKILL) when it is still the program named and, when
    /// `startedAt` is given, still the process that started then (ProcessState.startTime: a
    /// pid can be another process's by now); waits until it has ended. Before each signal
    /// the name and start time are checked again. A process that is gone, or is another
    /// process now, is left alone.
    static func stop(_ pid: pid_t, expecting name: String, startedAt: UInt64? = nil) {
        guard pid > 1, let started = startedAt ?? ProcessState.startTime(pid) else { return }
        for signal in [SIGTERM, SIGKILL] {
            guard isStill(pid, name: name, startedAt: started), kill(pid, signal) == 0 else { return }
            for _ in 0..<500 {
                _ = WaitStatus.ifEnded(pid)
                if !ProcessState.isRunning(pid) { return }
                usleep(10_000)
            }
        }
    }

    /// True when `pid` runs the program named and started at `startedAt`.
    static func isStill(_ pid: pid_t, name: String, startedAt: UInt64) -> Bool {
        ProcessState.isRunning(pid) && ProcessState.startTime(pid) == startedAt
            && ProcessChain.executable(of: pid)?.split(separator: "/").last.map(String.init) == name
    }

    private static func program(_ name: String, package: String, environment: [String: String]) throws(VaultError) -> String {
        guard let path = ExecutablePath.find(name, searchPath: environment["PATH"]) else {
            throw VaultError(.failed, "\(name) is not installed, so hostbook cannot start a keyring without a desktop",
                             remedy: .installThenUnlock(packages: "dbus-daemon gnome-keyring"))
        }
        return path
    }

    private static func strings(_ environment: [String: String]) -> [String] {
        environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }
}
