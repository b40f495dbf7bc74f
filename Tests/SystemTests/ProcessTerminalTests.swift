// A process's controlling terminal, told one line (ProcessIdentity.tellTerminal): a process
// whose controlling terminal is a pseudo-terminal of this user gets the line there; the same
// terminal owned by another user, or a process with no controlling terminal, gets nothing.
#if canImport(Glibc)
import Glibc
#endif
import System
import Foundation
import XCTest

final class ProcessTerminalTests: XCTestCase {
    private var children: [pid_t] = []

    override func tearDown() {
        for pid in children {
            kill(pid, SIGKILL)
            _ = WaitStatus.wait(pid)
        }
        children = []
    }

    /// `sleep 60` as the leader of a session of its own, `terminal` (when given) its
    /// controlling terminal (setsid -c), once it runs.
    private func sleeper(on terminal: Int32?) throws -> pid_t {
        var options = Spawn.Options()
        if let terminal { options.fileActions = [.duplicate(terminal, to: 0)] }
        let pid = try Spawn.start("/usr/bin/setsid", ["setsid"] + (terminal == nil ? [] : ["-c"]) + ["/bin/sleep", "60"], options)
        children.append(pid)
        var tries = 0
        while ProcessChain.commandLine(of: pid) != ["/bin/sleep", "60"] && tries < 6_000 {
            usleep(5_000)
            tries += 1
        }
        XCTAssertEqual(ProcessChain.commandLine(of: pid), ["/bin/sleep", "60"])
        return pid
    }

    private func readAvailable(_ master: Int32) -> String {
        guard (try? Poll.wait(master, events: Int16(POLLIN), timeoutMilliseconds: 10_000)) == true else { return "" }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(master, &buffer, buffer.count)
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
    }

    func testTheLineReachesTheControllingPseudoTerminalOfThisUserOnly() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid") else { throw XCTSkip("setsid(1) is missing") }
        var master: Int32 = -1, slave: Int32 = -1
        var name = [CChar](repeating: 0, count: 256)
        guard openpty(&master, &slave, &name, nil, nil) == 0 else { throw XCTSkip("no pseudo-terminals") }
        defer { close(master) }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let pid = try sleeper(on: slave)
        close(slave)

        let identity = ProcessIdentity(pid: pid)
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(identity.controllingTerminal, UInt64(info.st_rdev))
        XCTAssertTrue(identity.tellTerminal("hostbook: waiting for approval"))
        XCTAssertTrue(readAvailable(master).hasPrefix("hostbook: waiting for approval\r"))

        // Another user's terminal: not opened, nothing written.
        if geteuid() == 0 {
            XCTAssertEqual(chown(path, 65534, 65534), 0)
            XCTAssertFalse(identity.tellTerminal("hostbook: not yours"))
            XCTAssertEqual(chown(path, 0, 0), 0)
            XCTAssertTrue(identity.tellTerminal("hostbook: yours again"))
            XCTAssertTrue(readAvailable(master).hasPrefix("hostbook: yours again"), "only the line written to a terminal of this user arrives")
        }

        // No controlling terminal: nobody to tell.
        let alone = ProcessIdentity(pid: try sleeper(on: nil))
        XCTAssertNil(alone.controllingTerminal)
        XCTAssertFalse(alone.tellTerminal("hostbook: nobody"))
    }
}
