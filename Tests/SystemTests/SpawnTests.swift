// posix_spawn and the wait status: exit codes, signals as 128 + N, file actions, signal
// defaults, a new session, the environment, and bounded capture of both outputs.
#if canImport(Glibc)
import Glibc
#endif
import System
import TestSupport
import XCTest

final class SpawnTests: XCTestCase {
    func run(_ script: String, _ options: Spawn.Options = Spawn.Options()) throws -> WaitStatus {
        WaitStatus.wait(try Spawn.start("/bin/sh", ["sh", "-c", script], options))
    }

    /// inheritNothing reaches the highest descriptor the soft limit allows (close_range with
    /// CLOSE_RANGE_CLOEXEC covers them all), and leaves the descriptor open in this process.
    func testInheritNothingReachesTheHighestDescriptor() throws {
        var limit = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit), 0)
        let high = Int32(clamping: min(limit.rlim_cur, 1 << 20) - 1)
        XCTAssertEqual(dup2(STDERR_FILENO, high), high)
        defer { close(high) }
        var options = Spawn.Options()
        options.inheritNothing = true
        XCTAssertEqual(try run("test -e /proc/self/fd/\(high)", options), .exited(1), "the child had descriptor \(high)")
        XCTAssertGreaterThanOrEqual(fcntl(high, F_GETFD), 0, "still open here")
        // The same descriptor without inheritNothing is in the child: the test sees it.
        _ = fcntl(high, F_SETFD, 0)
        XCTAssertEqual(try run("test -e /proc/self/fd/\(high)"), .exited(0))
    }

    func testExitStatusIsDecoded() throws {
        XCTAssertEqual(try run("exit 0"), .exited(0))
        XCTAssertEqual(try run("exit 3"), .exited(3))
        XCTAssertEqual(try run("exit 255").exitCode, 255)
    }

    func testASignalIs128PlusItsNumber() throws {
        let status = try run("kill -TERM $$")
        XCTAssertEqual(status, .signaled(SIGTERM))
        XCTAssertEqual(status.exitCode, 128 + SIGTERM)
        XCTAssertEqual(try run("kill -KILL $$").exitCode, 137)
    }

    func testRawStatusWords() {
        XCTAssertEqual(WaitStatus(raw: 0x0100), .exited(1))
        XCTAssertEqual(WaitStatus(raw: 0x0009), .signaled(9))
        // A core dump sets bit 7; the signal is the low seven bits.
        XCTAssertEqual(WaitStatus(raw: 0x0086), .signaled(6))
    }

    func testAMissingProgramIsENOENT() {
        XCTAssertThrowsError(try Spawn.start("/nonexistent/program", ["program"])) { error in
            XCTAssertEqual(error as? Errno, Errno(ENOENT))
        }
    }

    func testEnvironmentIsTheOneGiven() throws {
        let result = try CapturedProcess.run("/bin/sh", ["sh", "-c", "printf %s \"$ONLY\"; env | wc -l"],
                                             options: Spawn.Options(environment: ["ONLY=this"]), limit: 1000)
        // sh adds PWD (and perhaps SHLVL, _): a handful, not this process's environment.
        XCTAssertTrue(String(decoding: result.stdout, as: UTF8.self).hasPrefix("this"))
        XCTAssertEqual(result.status, .exited(0))
    }

    func testDefaultSignalsUndoAnIgnoredSignal() throws {
        let old = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, old) }
        // An ignored SIGPIPE is inherited: the child survives `kill -PIPE $$`...
        XCTAssertEqual(try run("kill -PIPE $$; exit 7"), .exited(7))
        // ...unless it is set back to the default.
        XCTAssertEqual(try run("kill -PIPE $$; exit 7", Spawn.Options(defaultSignals: [SIGPIPE])), .signaled(SIGPIPE))
    }

    func testNewSessionLeadsItsOwnSession() throws {
        // /proc/self/stat of the child itself: field 6 is the session id.
        let result = try CapturedProcess.run("/bin/cat", ["cat", "/proc/self/stat"], options: Spawn.Options(newSession: true), limit: 4096)
        let text = String(decoding: result.stdout, as: UTF8.self)
        let pid = text.split(separator: " ").first.map(String.init)
        let fields = text[text.lastIndex(of: ")")!...].split(separator: " ")
        XCTAssertEqual(fields.count > 4 ? String(fields[4]) : nil, pid)
        XCTAssertNotEqual(pid.flatMap { Int32($0) }.map { getsid($0) }, getsid(0))
    }

    func testFileActionsGiveTheChildItsDescriptors() throws {
        let folder = try TempFolder()
        let path = folder.path + "/out"
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(fd) }
        let options = Spawn.Options(fileActions: [.duplicate(fd, to: STDOUT_FILENO), .open(STDIN_FILENO, path: "/dev/null", flags: O_RDONLY)])
        XCTAssertEqual(try run("cat; echo written", options), .exited(0))
        XCTAssertEqual(readFile(path), "written\n")
    }

    func testCaptureKeepsTheLimitAndDrainsTheRest() throws {
        // 1 MiB on stdout and on stderr: more than both pipes hold, so the child finishes
        // only if both are read while it writes.
        let script = "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2; exit 4"
        let result = try CapturedProcess.run("/bin/sh", ["sh", "-c", script], limit: 1000)
        XCTAssertEqual(result.status, .exited(4))
        XCTAssertEqual(result.stdout.count, 1000)
        XCTAssertEqual(result.stderr.count, 1000)
    }

    func testStartCapturingStderrReadsItLater() throws {
        let running = try CapturedProcess.startCapturingStderr("/bin/sh", ["sh", "-c", "echo to-out; echo to-err >&2; exit 2"])
        let (status, stderr) = running.finish(limit: 100)
        XCTAssertEqual(status, .exited(2))
        XCTAssertEqual(String(decoding: stderr, as: UTF8.self), "to-err\n")
    }

    func testIfEndedIsNilWhileTheChildRuns() throws {
        let pipe = try UnixPipe()
        let pid = try Spawn.start("/bin/sh", ["sh", "-c", "read line"], Spawn.Options(fileActions: [.duplicate(pipe.readEnd, to: STDIN_FILENO)]))
        close(pipe.readEnd)
        XCTAssertNil(WaitStatus.ifEnded(pid))
        try FileDescriptor(pipe.writeEnd).writeAll(Array("go\n".utf8))
        close(pipe.writeEnd)
        XCTAssertEqual(WaitStatus.wait(pid), .exited(0))
    }
}
