// Which program a process is, pinned by a pidfd (ProcessIdentity): /proc/PID/exe and never
// argv[0], the start time, a process that exits or execs another program no longer
// identified, and an interpreter identified with the script it runs (resolved against its
// working folder) or not at all.
#if canImport(Glibc)
import Glibc
#endif
import System
import Foundation
import TestSupport
import XCTest

final class ProcessIdentityTests: XCTestCase {
    private var children: [pid_t] = []

    override func tearDown() {
        for pid in children {
            kill(pid, SIGKILL)
            _ = WaitStatus.wait(pid)
        }
        children = []
    }

    private func start(_ path: String, _ argv: [String]) throws -> pid_t {
        let pid = try Spawn.start(path, argv)
        children.append(pid)
        return pid
    }

    /// Waits until the process's command line is `words` (a guard against a hang, not a timing).
    private func waitForCommandLine(_ pid: pid_t, _ words: [String], file: StaticString = #filePath, line: UInt = #line) {
        var tries = 0
        while ProcessChain.commandLine(of: pid) != words && tries < 6_000 {
            usleep(5_000)
            tries += 1
        }
        XCTAssertEqual(ProcessChain.commandLine(of: pid), words, file: file, line: line)
    }

    func testThisProcessIsItsExecutableWithItsStartTime() throws {
        let me = ProcessIdentity(pid: getpid())
        XCTAssertEqual(me.executable, ProcessIdentity.executable(of: getpid()))
        XCTAssertNotNil(me.executable)
        XCTAssertNotNil(me.startTime)
        XCTAssertEqual(me.startTime, ProcessState.startTime(getpid()))
        XCTAssertTrue(me.isUnchanged)
        XCTAssertEqual(me.current(), ProcessIdentity.Program(executable: me.executable!, script: nil))
    }

    /// argv[0] says /usr/bin/ssh; the program is what /proc/PID/exe says (sleep), in the
    /// identity and in the chain the prompt shows.
    func testTheProgramIsTheExecutableNeverArgvZero() throws {
        let pid = try start("/bin/sleep", ["/usr/bin/ssh", "30"])
        waitForCommandLine(pid, ["/usr/bin/ssh", "30"])
        let program = try XCTUnwrap(ProcessIdentity(pid: pid).current())
        XCTAssertTrue(program.executable.hasSuffix("/sleep"), program.executable)
        XCTAssertEqual(ProcessChain.chain(from: pid, ancestors: 0).first?.executable, program.executable)
    }

    /// A process that exits after its identity was taken is no longer identified (its pid
    /// may be another's by then): the pidfd says it has ended.
    func testAProcessThatExitedIsNotIdentified() throws {
        let pid = try start("/bin/sleep", ["sleep", "30"])
        waitForCommandLine(pid, ["sleep", "30"])
        let identity = ProcessIdentity(pid: pid)
        XCTAssertNotNil(identity.current())
        kill(pid, SIGKILL)
        _ = WaitStatus.wait(pid)
        children.removeAll { $0 == pid }
        XCTAssertFalse(identity.isUnchanged)
        XCTAssertNil(identity.current())
        XCTAssertNil(ProcessIdentity(pid: pid).current(), "a pid that is gone is nobody")
    }

    /// A process that execs another program after its identity was taken (same pid, same
    /// start time) is no longer identified.
    func testAProcessThatExecsAnotherProgramIsNotIdentified() throws {
        let folder = try TempFolder()
        let go = folder.path + "/go"
        let pid = try start("/bin/sh", ["sh", "-c", "while [ ! -e \(go) ]; do sleep 0.01; done; exec /bin/sleep 30"])
        let identity = ProcessIdentity(pid: pid)
        XCTAssertTrue(identity.isUnchanged)
        XCTAssertTrue(identity.executable?.hasSuffix("sh") == true, identity.executable ?? "-")
        XCTAssertTrue(FileManager.default.createFile(atPath: go, contents: nil))
        waitForCommandLine(pid, ["/bin/sleep", "30"])
        XCTAssertEqual(ProcessState.startTime(pid), identity.startTime, "the same process")
        XCTAssertFalse(identity.isUnchanged)
        XCTAssertNil(identity.current())
    }

    /// An interpreter is identified with its script: resolved against its working folder
    /// and existing; with no script (`sh -c`), it is not identified.
    func testAnInterpreterIsIdentifiedWithItsScript() throws {
        let folder = try TempFolder()
        let script = folder.path + "/first.sh"
        XCTAssertTrue(FileManager.default.createFile(atPath: script, contents: Data("sleep 30; :\n".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.path + "/other.sh", contents: Data("sleep 30; :\n".utf8)))
        let absolute = try start("/bin/sh", ["sh", script])
        let relative = try start("/bin/sh", ["sh", "-c", "cd \(folder.path) && exec sh -u other.sh"])
        let inline = try start("/bin/sh", ["sh", "-c", "sleep 30; :"])
        waitForCommandLine(absolute, ["sh", script])
        waitForCommandLine(relative, ["sh", "-u", "other.sh"])
        waitForCommandLine(inline, ["sh", "-c", "sleep 30; :"])
        let real = try XCTUnwrap(realpath(folder.path, nil).map { p in defer { free(p) }; return String(cString: p) })

        let first = try XCTUnwrap(ProcessIdentity(pid: absolute).current())
        XCTAssertTrue(ProcessIdentity.isInterpreter(first.executable), first.executable)
        XCTAssertEqual(first.script, real + "/first.sh")
        let other = try XCTUnwrap(ProcessIdentity(pid: relative).current())
        XCTAssertEqual(other.executable, first.executable)
        XCTAssertEqual(other.script, real + "/other.sh")
        XCTAssertNotEqual(first, other, "the same interpreter running another script is another program")
        XCTAssertNil(ProcessIdentity(pid: inline).current(), "sh -c names no script")
    }

    func testTheInterpreterListAndTheScriptArgument() {
        for name in ["/usr/bin/python3.11", "/usr/bin/python3", "/usr/bin/perl5.36.0", "/usr/bin/ruby", "/usr/bin/node",
                     "/usr/bin/bash", "/usr/bin/dash", "/usr/bin/zsh"] {
            XCTAssertTrue(ProcessIdentity.isInterpreter(name), name)
        }
        for name in ["/usr/bin/ssh", "/usr/bin/ssh-keygen", "/usr/bin/git", "/usr/bin/python-config-helper"] {
            XCTAssertFalse(ProcessIdentity.isInterpreter(name), name)
        }
        XCTAssertEqual(ProcessIdentity.scriptArgument(["python3", "-u", "first.py", "x"]), "first.py")
        XCTAssertEqual(ProcessIdentity.scriptArgument(["perl", "--", "a.pl"]), "a.pl")
        XCTAssertNil(ProcessIdentity.scriptArgument(["python3", "-c", "print(1)"]))
        XCTAssertNil(ProcessIdentity.scriptArgument(["python3", "-m", "http.server"]))
        XCTAssertNil(ProcessIdentity.scriptArgument(["perl", "-e", "1"]))
        XCTAssertNil(ProcessIdentity.scriptArgument(["bash"]))
    }
}
