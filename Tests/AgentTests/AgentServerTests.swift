// The agent against the real OpenSSH client tools: `ssh-add -l`, `-L` and `-T` (which
// signs through the agent and verifies the signature locally) for every key type, and
// the refusals of a read-only agent.
import Foundation
import TestSupport
import XCTest
import Agent
import KeyFormats
import SecureMemory

final class AgentServerTests: XCTestCase {
    struct Result { let status: Int32; let stdout: String; let stderr: String }

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

    static func keys() throws -> [AgentIdentity] {
        let types: [(KeyGenerationType, Int?)] = [(.ed25519, nil), (.ecdsa, 256), (.ecdsa, 384), (.ecdsa, 521), (.rsa, 2048)]
        return try types.enumerated().map { i, t in
            AgentIdentity(key: try PrivateKeyGenerator.generate(t.0, bits: t.1, comment: "k\(i)"), comment: "key-\(i)")
        }
    }

    func sshAdd(_ args: [String], socket: String) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-add")
        p.arguments = args
        p.environment = ["SSH_AUTH_SOCK": socket, "PATH": "/usr/bin:/bin"]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    func testSSHAddListsAndSignsWithEveryKeyType() throws {
        let identities = try Self.keys()
        let socket = folder.appendingPathComponent("agent.sock").path
        let server = try AgentServer(socketPath: socket, policy: AgentPolicy(identities: { _ in identities }))
        defer { server.stop() }

        var mode = stat()
        XCTAssertEqual(stat(socket, &mode), 0)
        XCTAssertEqual(mode.st_mode & 0o777, 0o600)

        let listed = try sshAdd(["-l"], socket: socket)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        for (i, id) in identities.enumerated() {
            XCTAssertTrue(listed.stdout.contains("\(id.publicKey.sha256Fingerprint) key-\(i)"), listed.stdout)
        }
        let lines = try sshAdd(["-L"], socket: socket)
        XCTAssertEqual(lines.status, 0)
        XCTAssertEqual(lines.stdout, identities.map { $0.publicKey.line(comment: $0.comment) + "\n" }.joined())

        for (i, id) in identities.enumerated() {
            let pub = folder.appendingPathComponent("k\(i).pub")
            try Data((id.publicKey.line(comment: id.comment) + "\n").utf8).write(to: pub)
            let tested = try sshAdd(["-T", pub.path], socket: socket)
            XCTAssertEqual(tested.status, 0, "\(id.publicKey.type): \(tested.stderr)")
        }
    }

    func testReadOnlyAgentRefusesChanges() throws {
        let identities = try Array(Self.keys().prefix(1))
        let socket = folder.appendingPathComponent("agent.sock").path
        let server = try AgentServer(socketPath: socket, policy: AgentPolicy(identities: { _ in identities }))
        defer { server.stop() }
        let removeAll = try sshAdd(["-D"], socket: socket)
        XCTAssertEqual(removeAll.status, 1)
        XCTAssertTrue(removeAll.stderr.contains("Failed to remove all identities"), removeAll.stderr)
        let lock = try sshAdd(["-x"], socket: socket)
        XCTAssertNotEqual(lock.status, 0)
        let stillThere = try sshAdd(["-l"], socket: socket)
        XCTAssertEqual(stillThere.status, 0)
        XCTAssertTrue(stillThere.stdout.contains(identities[0].publicKey.sha256Fingerprint))
    }

    func testEmptyPolicyAndStopRemovesSocket() throws {
        let socket = folder.appendingPathComponent("agent.sock").path
        let server = try AgentServer(socketPath: socket, policy: AgentPolicy(identities: { _ in [] }))
        let listed = try sshAdd(["-l"], socket: socket)
        XCTAssertEqual(listed.status, 1)
        XCTAssertTrue(listed.stdout.contains("The agent has no identities"), listed.stdout)
        server.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket))
        let after = try sshAdd(["-l"], socket: socket)
        XCTAssertEqual(after.status, 2)
    }

    func testManyClientsAtOnce() throws {
        let identities = try Array(Self.keys().prefix(1))
        let socket = folder.appendingPathComponent("agent.sock").path
        let server = try AgentServer(socketPath: socket, policy: AgentPolicy(identities: { _ in identities }))
        defer { server.stop() }
        // Twenty clients hold their connections open at the same time.
        var fds: [Int32] = []
        for _ in 0..<20 { fds.append(try Self.connect(socket)) }
        for fd in fds.reversed() {
            XCTAssertEqual(try Self.roundTrip(fd, [11]).first, 12)
            close(fd)
        }
    }

    func testOversizedAndEmptyFramesCloseTheConnection() throws {
        let socket = folder.appendingPathComponent("agent.sock").path
        let server = try AgentServer(socketPath: socket, policy: AgentPolicy(identities: { _ in [] }))
        defer { server.stop() }
        for header in [[0x00, 0x04, 0x00, 0x01] as [UInt8], [0, 0, 0, 0]] {
            let fd = try Self.connect(socket)
            defer { close(fd) }
            _ = header.withUnsafeBytes { write(fd, $0.baseAddress, 4) }
            var byte: UInt8 = 0
            XCTAssertEqual(read(fd, &byte, 1), 0, "the agent closes without a reply")
        }
        let fd = try Self.connect(socket)
        defer { close(fd) }
        XCTAssertEqual(try Self.roundTrip(fd, [200]), [5], "an unknown type gets SSH_AGENT_FAILURE")
    }

    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else { throw XCTSkip("connect failed: \(errno)") }
        return fd
    }

    static func roundTrip(_ fd: Int32, _ body: [UInt8]) throws -> [UInt8] {
        let n = UInt32(body.count)
        let frame = [UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)] + body
        _ = frame.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var header = [UInt8](repeating: 0, count: 4)
        guard read(fd, &header, 4) == 4 else { return [] }
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        var out = [UInt8](repeating: 0, count: length)
        var got = 0
        while got < length {
            let r = out.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, length - got) }
            if r <= 0 { break }
            got += r
        }
        return out
    }
}
