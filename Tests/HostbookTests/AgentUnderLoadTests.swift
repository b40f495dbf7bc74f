// The standing agent under abuse: a flood of connections from one process at a low
// descriptor limit, and a database another program holds while the agent signs.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class AgentUnderLoadTests: XCTestCase {
    struct Unexpected: Error, CustomStringConvertible { let description: String }

    /// Imports an unencrypted ed25519 key made by ssh-keygen; its .pub file stays in fx.dir.
    private func importKey(_ bed: SSHTestBed, _ name: String) throws {
        let path = bed.fx.dir.file("\(name)-key")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path]).status, 0)
        let r = try bed.fx.run(["keys", "import", path, "--name", name])
        XCTAssertEqual(r.status, 0, r.stderr)
        try FileManager.default.removeItem(atPath: path)
    }

    /// `agent start` through `wrapper` (a program that execs the rest of its arguments);
    /// the socket and the agent's pid.
    private func startAgent(_ bed: SSHTestBed, wrapper: [String] = []) throws -> (socket: String, pid: pid_t) {
        let r = wrapper.isEmpty ? try bed.fx.run(["agent", "start"])
            : try bed.fx.tool(wrapper[0], Array(wrapper.dropFirst()) + [HostbookProcess.binaryURL.path, "agent", "start"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        guard lines.count == 3, let pid = pid_t(lines[1].dropFirst("SSH_AGENT_PID=".count).prefix { $0 != ";" }) else {
            throw Unexpected(description: "unexpected agent start output: \(r.stdout)")
        }
        return (bed.runtime + "/hostbook/agent.sock", pid)
    }

    private func stopAgent(_ bed: SSHTestBed) {
        XCTAssertEqual((try? bed.fx.run(["agent", "stop"]))?.status, 0)
    }

    /// /proc/PID/stat's fields after the command name (which is in parentheses and may
    /// hold spaces): the state first; nil when the process is gone.
    private func statFields(_ pid: pid_t) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// utime + stime of a process, in clock ticks (/proc/PID/stat fields 14 and 15).
    private func cpuTicks(_ pid: pid_t) throws -> Int {
        guard let fields = statFields(pid), let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw Unexpected(description: "cannot read /proc/\(pid)/stat: the agent is gone")
        }
        return user + system
    }

    /// A non-blocking connect (a full backlog is EAGAIN, not a wait); nil when refused.
    private func connectWithoutWaiting(_ path: String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else { close(fd); return nil }
        return fd
    }

    /// The incident: one process (this test, as the ssh carrying a forwarded agent would)
    /// opens hundreds of connections to an agent limited to 64 descriptors and holds them.
    /// The agent keeps that process to its share, serves `ssh-add -l` all the while, does
    /// little work doing so (no accept loop spinning), and is still there afterwards.
    func testAFloodFromOneProcessAtALowDescriptorLimit() throws {
        let bed = try SSHTestBed()
        try importKey(bed, "one")
        let (socket, pid) = try startAgent(bed, wrapper: ["/usr/bin/prlimit", "--nofile=64:64"])
        defer { stopAgent(bed) }
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        XCTAssertTrue(limits.split(separator: "\n").contains { $0.hasPrefix("Max open files") && $0.contains(" 64 ") }, limits)

        let before = try cpuTicks(pid)
        var flood: [Int32] = []
        defer { flood.forEach { close($0) } }
        for _ in 0..<400 { if let fd = connectWithoutWaiting(socket) { flood.append(fd) } }
        XCTAssertGreaterThan(flood.count, 64, "more connections than the agent has descriptors")
        for _ in 0..<5 {
            let listed = try bed.fx.tool("/usr/bin/ssh-add", ["-l"], environment: ["SSH_AUTH_SOCK": socket])
            XCTAssertEqual(listed.status, 0, listed.stderr)
            XCTAssertTrue(listed.stdout.contains("one (ED25519)"), listed.stdout)
        }
        // 100 ticks is a second of CPU: a spinning accept loop takes that many in a second
        // of waiting, serving all this takes a few.
        XCTAssertLessThan(try cpuTicks(pid) - before, 100)

        flood.forEach { close($0) }
        flood = []
        let state = statFields(pid)?.first
        XCTAssertTrue(state != nil && state != "Z", "the agent is still running (state \(state ?? "gone"))")
        let after = try bed.fx.tool("/usr/bin/ssh-add", ["-l"], environment: ["SSH_AUTH_SOCK": socket])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stdout.contains("one (ED25519)"), after.stdout)
    }

    /// sqlite3 holds the database's write lock while ssh-add signs through the agent (-T):
    /// the signature is made at once, and its log row is written once the lock is released.
    func testASignatureDoesNotWaitForTheLog() throws {
        let bed = try SSHTestBed()
        try importKey(bed, "alpha")
        let (socket, _) = try startAgent(bed)
        defer { stopAgent(bed) }
        let held = try bed.fx.tool("/usr/bin/sqlite3", [bed.fx.db], stdin: """
            BEGIN IMMEDIATE;
            .shell ssh-add -T "$DIR/alpha-key.pub"; echo "signed: $?"
            COMMIT;

            """, environment: ["SSH_AUTH_SOCK": socket, "DIR": bed.fx.dir.path])
        XCTAssertEqual(held.status, 0, held.stderr)
        XCTAssertTrue(held.stdout.contains("signed: 0"), held.stdout + held.stderr)
        // Stopping the agent writes what its log's writer still holds.
        stopAgent(bed)
        let log = try bed.fx.json("agent", "log") as? [[String: Any]] ?? []
        XCTAssertEqual(log.map { $0["key"] as? String }, ["alpha"], "\(log)")
        XCTAssertEqual(log.first?["outcome"] as? String, "signed")
        XCTAssertEqual(log.first?["client_executable"] as? String, "/usr/bin/ssh-add")
    }
}
