// A flood of connections: one process gets its share of the clients and no more (the rest
// are closed at once) while another process is still served; at the descriptor budget the
// server stops accepting until a client goes away; when accept runs out of descriptors the
// server waits instead of calling accept again and again on a listener that stays readable.
import Foundation
import TestSupport
import XCTest
@testable import Agent
import KeyFormats
import System

final class AgentConnectionLimitTests: XCTestCase {
    var temp: TempFolder!
    var folder: URL!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-add") else { throw XCTSkip("ssh-add is not installed") }
        temp = try TempFolder()
        folder = temp.url
    }

    override func tearDown() {
        temp = nil
    }

    private func server(_ limits: ConnectionLimits) throws -> (AgentServer, AgentIdentity) {
        let identity = AgentIdentity(key: try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "k"), comment: "flood-key")
        let server = try AgentServer(socketPath: folder.appendingPathComponent("agent.sock").path,
                                     policy: AgentPolicy(identities: { _ in [identity] }), limits: limits)
        return (server, identity)
    }

    enum Answer: Equatable { case answered, closed }

    /// Asks for the identities: answered, or the connection was closed without a reply.
    static func ask(_ fd: Int32) -> Answer {
        let request: [UInt8] = [0, 0, 0, 1, AgentMessageType.requestIdentities]
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, 5, Int32(MSG_NOSIGNAL)) }) == 5 else { return .closed }
        var header = [UInt8](repeating: 0, count: 4)
        var got = 0
        while got < 4 {
            let n = header.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, 4 - got) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return .closed }
            got += n
        }
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        var body = [UInt8](repeating: 0, count: length)
        got = 0
        while got < length {
            let n = body.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, length - got) }
            if n <= 0 { return .closed }
            got += n
        }
        return body.first == AgentMessageType.identitiesAnswer ? .answered : .closed
    }

    /// A socket not connected yet.
    static func unconnectedSocket() -> Int32 { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }

    static func connect(_ fd: Int32, to path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    static func connected(to path: String) throws -> Int32 {
        let fd = unconnectedSocket()
        guard fd >= 0, connect(fd, to: path) else { throw XCTSkip("cannot connect: \(String(cString: strerror(errno)))") }
        return fd
    }

    /// Waits for the server's books to reach a state (a guard against a hang, not a timing).
    static func waitFor(_ server: AgentServer, file: StaticString = #filePath, line: UInt = #line,
                        _ condition: (SocketServerCounters) -> Bool) {
        var tries = 0
        while !condition(server.counters) && tries < 6_000 {
            usleep(5_000)
            tries += 1
        }
        XCTAssertTrue(condition(server.counters), "\(server.counters)", file: file, line: line)
    }

    func sshAddList(_ socket: String) throws -> (status: Int32, stdout: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-add")
        p.arguments = ["-l"]
        p.environment = ["SSH_AUTH_SOCK": socket, "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self))
    }

    /// Sixty connections from this process: its share is served, the rest closed at once,
    /// and `ssh-add -l` (another process) is served while they are held.
    func testOneProcessGetsItsShareAndAnotherIsStillServed() throws {
        let (server, identity) = try server(ConnectionLimits(maxClients: 16, maxClientsPerPeer: 4, descriptorBudget: 1_000))
        defer { server.stop() }
        var flood: [Int32] = []
        defer { flood.forEach { close($0) } }
        for _ in 0..<60 { flood.append(try Self.connected(to: server.socketPath)) }
        let answers = flood.map(Self.ask)
        XCTAssertEqual(answers.filter { $0 == .answered }.count, 4, "this process's share")
        XCTAssertEqual(answers.filter { $0 == .closed }.count, 56)
        XCTAssertEqual(server.counters.active, 4)
        XCTAssertEqual(server.counters.peak, 4)
        XCTAssertEqual(server.counters.closedOverLimit, 56)

        let listed = try sshAddList(server.socketPath)
        XCTAssertEqual(listed.status, 0)
        XCTAssertTrue(listed.stdout.contains("\(identity.publicKey.sha256Fingerprint) flood-key"), listed.stdout)
        XCTAssertLessThanOrEqual(server.counters.peak, 5)

        // Once they are gone, this process is served again.
        flood.forEach { close($0) }
        flood = []
        Self.waitFor(server) { $0.active == 0 }
        let again = try Self.connected(to: server.socketPath)
        defer { close(again) }
        XCTAssertEqual(Self.ask(again), .answered)
    }

    /// The total: twenty connections, six served, the rest closed at once.
    func testClientsOverTheTotalAreClosedAtOnce() throws {
        let (server, _) = try server(ConnectionLimits(maxClients: 6, maxClientsPerPeer: 6, descriptorBudget: 1_000))
        defer { server.stop() }
        var flood: [Int32] = []
        defer { flood.forEach { close($0) } }
        for _ in 0..<20 { flood.append(try Self.connected(to: server.socketPath)) }
        let answers = flood.map(Self.ask)
        XCTAssertEqual(answers.filter { $0 == .answered }.count, 6)
        XCTAssertEqual(server.counters.peak, 6)
        XCTAssertEqual(server.counters.closedOverLimit, 14)
    }

    /// At the descriptor budget the listener is left alone: the connections behind wait in
    /// the backlog (neither served nor closed) and accept is not called again until a client
    /// goes away; then the next one is accepted and served.
    func testAtTheDescriptorBudgetAcceptingWaitsForAClientToLeave() throws {
        let (server, _) = try server(ConnectionLimits(maxClients: 100, maxClientsPerPeer: 100, descriptorBudget: 5 * ConnectionLimits.descriptorsPerClient))
        defer { server.stop() }
        var flood: [Int32] = []
        defer { flood.forEach { close($0) } }
        for _ in 0..<20 { flood.append(try Self.connected(to: server.socketPath)) }
        Self.waitFor(server) { $0.active == 5 }
        for fd in flood.prefix(5) { XCTAssertEqual(Self.ask(fd), .answered) }
        // The accepting thread has stopped polling the listener (readable all along): it
        // waits for a client to leave, and nothing but that wakes it.
        Self.waitFor(server) { $0.pausedWaits >= 1 }
        XCTAssertEqual(server.counters.acceptCalls, 5, "the listener, readable all along, is not polled")
        XCTAssertEqual(server.counters.peak, 5)

        close(flood.removeFirst())
        Self.waitFor(server) { $0.acceptCalls == 6 && $0.active == 5 }
        XCTAssertEqual(Self.ask(flood[4]), .answered, "the sixth connection, accepted once the first left")
        XCTAssertEqual(server.counters.peak, 5)
    }

    /// accept(2) fails with EMFILE (this process's descriptors are used up, RLIMIT_NOFILE
    /// lowered for the test): the server calls it no more until a client goes away, then
    /// serves the connections that waited.
    func testOutOfDescriptorsAcceptWaitsForAClientToLeave() throws {
        let (server, _) = try server(ConnectionLimits(maxClients: 100, maxClientsPerPeer: 100, descriptorBudget: 1_000))
        defer { server.stop() }
        let held = try Self.connected(to: server.socketPath)
        XCTAssertEqual(Self.ask(held), .answered)
        // Sockets made while there are descriptors; connected (no descriptor needed) after.
        let waiting = (0..<3).map { _ in Self.unconnectedSocket() }
        defer { waiting.forEach { close($0) } }
        XCTAssertFalse(waiting.contains { $0 < 0 })

        var saved = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &saved), 0)
        var low = saved
        low.rlim_cur = rlim_t(ConnectionLimits.openDescriptors() + 8)
        XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &low), 0)
        var fillers: [Int32] = []
        var restored = false
        func restore() {
            guard !restored else { return }
            restored = true
            fillers.forEach { close($0) }
            var back = saved
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &back)
        }
        defer { restore() }
        // Every descriptor number under the limit taken.
        var failure: Int32 = 0
        while fillers.count < 10_000 {
            let fd = dup(held)
            if fd < 0 { failure = errno; break }
            fillers.append(fd)
        }
        XCTAssertEqual(failure, EMFILE)
        for fd in waiting { XCTAssertTrue(Self.connect(fd, to: server.socketPath)) }
        Self.waitFor(server) { $0.acceptsOutOfResources >= 1 }
        // Out of descriptors with a client held: the accepting thread waits for that client
        // to leave, the readable listener left alone (nothing else wakes it).
        Self.waitFor(server) { $0.pausedWaits >= 1 }
        let calls = server.counters.acceptCalls
        XCTAssertEqual(server.counters.acceptsOutOfResources, 1, "no accept(2) on a readable listener while out of descriptors")
        restore()
        XCTAssertEqual(server.counters.acceptCalls, calls, "still waiting for a client to leave")
        XCTAssertEqual(Self.ask(held), .answered, "the held client is served meanwhile")
        XCTAssertEqual(server.counters.acceptCalls, calls, "still waiting for a client to leave")

        close(held)
        for fd in waiting { XCTAssertEqual(Self.ask(fd), .answered) }
        XCTAssertEqual(server.counters.acceptCalls, calls + 3)
    }

    /// Idle connections (connected, no whole request) hold every slot: a new client is
    /// closed at once. The server closes them at the idle timeout, and a new client is
    /// served. Counted, not timed: the test waits for the server's books.
    func testIdleClientsAreClosedSoTheyCannotHoldEverySlot() throws {
        let limits = ConnectionLimits(maxClients: 4, maxClientsPerPeer: 4, descriptorBudget: 1_000, idleTimeoutMilliseconds: 2_000)
        let (server, _) = try server(limits)
        defer { server.stop() }
        var idle: [Int32] = []
        defer { idle.forEach { close($0) } }
        for _ in 0..<limits.maxClients { idle.append(try Self.connected(to: server.socketPath)) }
        // Half a request on one: still idle (no whole request).
        let half: [UInt8] = [0, 0, 0, 5, AgentMessageType.requestIdentities]
        XCTAssertEqual(half.withUnsafeBytes { send(idle[0], $0.baseAddress, 5, Int32(MSG_NOSIGNAL)) }, 5)
        Self.waitFor(server) { $0.active == limits.maxClients }
        let refused = try Self.connected(to: server.socketPath)
        XCTAssertEqual(Self.ask(refused), .closed, "every slot held")
        close(refused)
        Self.waitFor(server) { $0.active == 0 }
        for fd in idle {
            var byte: UInt8 = 0
            XCTAssertLessThanOrEqual(read(fd, &byte, 1), 0, "closed by the server (end of file, or a reset for the half request)")
        }
        let served = try Self.connected(to: server.socketPath)
        defer { close(served) }
        XCTAssertEqual(Self.ask(served), .answered)
        XCTAssertEqual(server.counters.closedOverLimit, 1)
    }

    /// A client whose request is being decided (a confirm key waiting for the user) is not
    /// idle: an idle client connected beside it is closed at the timeout, and it still gets
    /// its signature once the decision comes.
    func testAClientWaitingForItsAnswerIsNotIdle() throws {
        let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "k")
        let identity = AgentIdentity(key: key, comment: "k")
        let decide = DispatchSemaphore(value: 0)
        let deciding = DispatchSemaphore(value: 0)
        let policy = AgentPolicy(identities: { _ in [identity] }, maySign: { _, _, _ in
            deciding.signal()
            decide.wait()
            return true
        })
        let server = try AgentServer(socketPath: folder.appendingPathComponent("agent.sock").path, policy: policy,
                                     limits: ConnectionLimits(maxClients: 8, maxClientsPerPeer: 8, descriptorBudget: 1_000,
                                                              idleTimeoutMilliseconds: 200))
        defer { server.stop() }
        let waiting = try Self.connected(to: server.socketPath)
        defer { close(waiting) }
        let frame = LengthPrefixedFrame.encode(AgentWire.signRequest(keyBlob: key.publicKey.blob, data: [1, 2, 3]))
        XCTAssertEqual(frame.withUnsafeBytes { send(waiting, $0.baseAddress, frame.count, Int32(MSG_NOSIGNAL)) }, frame.count)
        deciding.wait()
        let idle = try Self.connected(to: server.socketPath)
        defer { close(idle) }
        Self.waitFor(server) { $0.active == 2 }
        Self.waitFor(server) { $0.active == 1 }
        var byte: UInt8 = 0
        XCTAssertEqual(read(idle, &byte, 1), 0, "the idle one was closed")
        decide.signal()
        let reply = LengthPrefixedFrame.read(from: waiting, maxLength: 1 << 16)
        XCTAssertEqual(reply?.first, AgentMessageType.signResponse, "the waiting one got its signature")
    }

    /// The limits under this process's RLIMIT_NOFILE: one peer never gets more than half.
    func testLimitsForThisProcess() {
        let limits = ConnectionLimits.forThisProcess()
        XCTAssertEqual(limits.maxClients, ConnectionLimits.defaultMaxClients)
        XCTAssertLessThanOrEqual(limits.maxClientsPerPeer, min(limits.maxClients, limits.descriptorBudget) / 2)
        XCTAssertGreaterThanOrEqual(limits.maxClientsPerPeer, 1)
    }
}
