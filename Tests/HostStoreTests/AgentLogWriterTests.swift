// The standing agent's log: repeated refusals are written once a window, the table keeps
// only the newest rows, and recording never waits for a database another connection holds.
import XCTest
@testable import HostStore
import TestSupport

final class AgentLogWriterTests: XCTestCase {
    /// A clock the test moves.
    private final class Clock: @unchecked Sendable {
        private let mutex = NSLock()
        private var seconds = 1_000.0
        func now() -> Double { mutex.lock(); defer { mutex.unlock() }; return seconds }
        func advance(_ by: Double) { mutex.lock(); seconds += by; mutex.unlock() }
    }

    private static func refusal(key: String = "SHA256:key", host: String? = "SHA256:host", forwarded: Bool = true,
                                executable: String? = "/usr/bin/ssh", pid: Int = 4242) -> AgentUse {
        AgentUse(signed: false, keyFingerprint: key, hostKeyBlob: nil, hostKeyFingerprint: host, forwarded: forwarded,
                 clientPID: pid, clientExecutable: executable)
    }

    private static func rowCount(_ db: HostDatabase) throws -> Int {
        try db.read { Int(try db.connection.query("SELECT count(*) FROM agent_log").first?.int(0) ?? -1) }
    }

    func testRepeatedRefusalsAreWrittenOncePerWindow() throws {
        let tmp = try TempFolder()
        let path = tmp.file("h.db")
        let db = try HostDatabase.open(path: path)
        let clock = Clock()
        let writer = try AgentLogWriter(database: try HostDatabase.open(path: path), clock: { clock.now() })
        defer { writer.stop() }

        // A forwarded remote asking 500 times in the window (from different ssh pids): one row.
        for i in 0..<500 { writer.record(Self.refusal(pid: 1000 + i)) }
        writer.flush()
        XCTAssertEqual(try Self.rowCount(db), 1)
        XCTAssertEqual(writer.counters, AgentLogWriter.Counters(written: 1, coalesced: 499, dropped: 0))

        // Another key, destination, forwarding or client is another row; signatures are never coalesced.
        writer.record(Self.refusal(key: "SHA256:other"))
        writer.record(Self.refusal(host: "SHA256:elsewhere"))
        writer.record(Self.refusal(host: nil))
        writer.record(Self.refusal(forwarded: false))
        writer.record(Self.refusal(executable: "/usr/bin/ssh-add"))
        for _ in 0..<3 {
            writer.record(AgentUse(signed: true, keyFingerprint: "SHA256:key", hostKeyBlob: nil, hostKeyFingerprint: "SHA256:host",
                                   forwarded: true, clientPID: 1, clientExecutable: "/usr/bin/ssh"))
        }
        writer.flush()
        XCTAssertEqual(try Self.rowCount(db), 1 + 5 + 3)

        // Once the window has passed, the same refusal is written again (once).
        clock.advance(AgentLogWriter.refusalWindowSeconds + 1)
        for _ in 0..<50 { writer.record(Self.refusal()) }
        writer.flush()
        XCTAssertEqual(try Self.rowCount(db), 10)
        let last = try db.agentLog(limit: 1)
        XCTAssertEqual(last.first?.signed, false)
        XCTAssertEqual(last.first?.keyFingerprint, "SHA256:key")
        XCTAssertEqual(last.first?.destinationFingerprint, "SHA256:host")
        XCTAssertEqual(last.first?.forwarded, true)
        XCTAssertEqual(last.first?.clientExecutable, "/usr/bin/ssh")
        XCTAssertEqual(writer.counters.coalesced, 499 + 49)
    }

    func testTheLogKeepsTheNewestRows() throws {
        let tmp = try TempFolder()
        let path = tmp.file("h.db")
        let db = try HostDatabase.open(path: path)
        func entry(_ n: Int) -> AgentLogEntry {
            AgentLogEntry(at: "", signed: true, keyName: nil, keyFingerprint: "SHA256:k", destination: nil,
                          destinationFingerprint: nil, forwarded: false, clientPID: n, clientExecutable: nil)
        }
        // The default bound, past it in one write and then one row at a time.
        try db.recordAgentUses((1...HostDatabase.agentLogRowsKept + 50).map(entry))
        XCTAssertEqual(try Self.rowCount(db), HostDatabase.agentLogRowsKept)
        for n in 1...3 { try db.recordAgentUse(entry(HostDatabase.agentLogRowsKept + 50 + n)) }
        let all = try db.agentLog()
        XCTAssertEqual(all.count, HostDatabase.agentLogRowsKept)
        XCTAssertEqual(all.first?.clientPID, 54, "the oldest rows went")
        XCTAssertEqual(all.last?.clientPID, HostDatabase.agentLogRowsKept + 53)

        // Through the writer, with a small bound: the newest 50 of 120.
        let writer = try AgentLogWriter(database: try HostDatabase.open(path: path), rowsKept: 50)
        defer { writer.stop() }
        for n in 1...120 {
            writer.record(AgentUse(signed: true, keyFingerprint: "SHA256:w", hostKeyBlob: nil, hostKeyFingerprint: nil,
                                   forwarded: false, clientPID: n, clientExecutable: nil))
        }
        writer.flush()
        let kept = try db.agentLog()
        XCTAssertEqual(kept.map(\.clientPID), (71...120).map { $0 })
    }

    /// Another connection holds the write lock: recording returns at once whatever the
    /// number of uses (the queue drops and counts beyond its capacity), and what was queued
    /// is written once the lock is released.
    func testRecordingNeverWaitsForTheDatabase() throws {
        let tmp = try TempFolder()
        let path = tmp.file("h.db")
        let db = try HostDatabase.open(path: path)
        let writer = try AgentLogWriter(database: try HostDatabase.open(path: path), queueCapacity: 8)
        defer { writer.stop() }
        let holder = try SQLiteConnection(path: path, create: false)
        try holder.execute("BEGIN IMMEDIATE")
        for n in 1...100 {
            writer.record(AgentUse(signed: true, keyFingerprint: "SHA256:k", hostKeyBlob: nil, hostKeyFingerprint: nil,
                                   forwarded: false, clientPID: n, clientExecutable: nil))
        }
        // At most one batch is waiting for the lock and one queue behind it.
        let dropped = writer.counters.dropped
        XCTAssertGreaterThanOrEqual(dropped, 100 - 2 * 8)
        XCTAssertEqual(try Self.rowCount(db), 0)
        try holder.execute("COMMIT")
        writer.flush()
        XCTAssertEqual(try Self.rowCount(db), 100 - dropped)
        XCTAssertEqual(writer.counters.written, 100 - dropped)
    }
}
