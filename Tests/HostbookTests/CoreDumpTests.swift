// Core dumps are off in every hostbook process (main.swift → ProcessProtection): checked on
// a real hostbook process while it is blocked reading a private key from standard input.
//
// A process that is not dumpable has its /proc/PID files owned by root instead of by its
// own user (proc(5), PR_SET_DUMPABLE), which is what this test reads. As root every process
// is root's, so then hostbook and a control process run as `nobody` (setpriv); the control
// (`sleep`, which stays dumpable) shows that the check can tell the two apart.
import Foundation
import XCTest

final class CoreDumpTests: XCTestCase {
    /// A running process: /proc/PID/status's real uid and owner, and RLIMIT_CORE.
    struct Observed {
        let uid: UInt32
        let procOwner: UInt32
        let coreLimit: String
    }

    func testHostbookIsNotDumpableAndHasNoCoreLimitWhileReadingStdin() throws {
        let dir = try TemporaryDirectory()
        let hostbook = try observe(HostbookProcess.binaryURL, ["keys", "import", "-", "--name", "k", "--db", dir.file("db")])
        let control = try observe(URL(fileURLWithPath: "/bin/sleep"), ["30"])

        XCTAssertEqual(control.procOwner, control.uid, "the control process should be dumpable (its /proc files its own)")
        XCTAssertNotEqual(hostbook.uid, 0, "hostbook should run as an unprivileged user here")
        XCTAssertEqual(hostbook.procOwner, 0, "hostbook's /proc files belong to root: it is not dumpable")
        XCTAssertEqual(hostbook.coreLimit, "0 0", "RLIMIT_CORE soft and hard limits")
    }

    /// Starts `executable` (as nobody when the test runs as root) with stdin held open,
    /// waits until it has started, reads what /proc says, then ends it.
    private func observe(_ executable: URL, _ arguments: [String]) throws -> Observed {
        let p = Process()
        if getuid() == 0 {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            p.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", executable.path] + arguments
        } else {
            p.executableURL = executable
            p.arguments = arguments
        }
        let stdin = Pipe()
        p.standardInput = stdin
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer {
            try? stdin.fileHandleForWriting.close()
            if p.isRunning { p.terminate() }
            p.waitUntilExit()
        }
        let proc = "/proc/\(p.processIdentifier)"
        // setpriv execs the program under the same pid: wait until it is the program
        // that runs and it has blocked (in read(2) on stdin, or in sleep).
        let name = String(executable.lastPathComponent.prefix(15))
        let deadline = Date().addingTimeInterval(20)
        var status = ""
        while Date() < deadline {
            status = (try? String(contentsOfFile: proc + "/status", encoding: .utf8)) ?? ""
            if status.contains("Name:\t\(name)\n"), status.contains("State:\tS") { break }
            usleep(20_000)
        }
        XCTAssertTrue(status.contains("Name:\t\(name)\n"), "\(name) did not start: \(status.prefix(200))")
        let uidLine = status.split(separator: "\n").first { $0.hasPrefix("Uid:") } ?? ""
        let uid = UInt32(uidLine.split(separator: "\t").dropFirst().first ?? "") ?? .max
        var info = stat()
        XCTAssertEqual(stat(proc + "/status", &info), 0)
        let limits = (try? String(contentsOfFile: proc + "/limits", encoding: .utf8)) ?? ""
        let coreLine = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") } ?? ""
        let fields = coreLine.dropFirst("Max core file size".count).split(separator: " ")
        return Observed(uid: uid, procOwner: info.st_uid, coreLimit: fields.prefix(2).joined(separator: " "))
    }
}
