// session-bind with a host certificate made by ssh-keygen -s: the bind verifies with the
// certified key and keeps the certificate, so signing is tied to it. A bind that does not
// verify (a bad signature, a certificate whose CA signature is broken, a host key that
// does not parse, a malformed message) leaves the connection refused everything after it,
// whatever the policy says. Lock and unlock are never taken from a forwarded connection.
import Foundation
import TestSupport
import XCTest
@testable import Agent
import System
import KeyFormats
import SecureMemory

final class SessionBindCertificateTests: XCTestCase {
    private var temp: TempFolder!
    private var folder: URL!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen") else { throw XCTSkip("ssh-keygen is not installed") }
        temp = try TempFolder()
        folder = temp.url
    }

    override func tearDown() {
        temp = nil
    }

    private func keygen(_ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        p.arguments = args
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "ssh-keygen \(args)")
    }

    /// A host key made here and its host certificate, signed by a CA made by ssh-keygen.
    private func certifiedHostKey() throws -> (key: PrivateKey, certificate: Certificate) {
        let host = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "host")
        let ca = folder.appendingPathComponent("ca").path, pub = folder.appendingPathComponent("host.pub").path
        try keygen(["-q", "-t", "ed25519", "-N", "", "-f", ca])
        try Data((host.publicKey.line(comment: "host") + "\n").utf8).write(to: URL(fileURLWithPath: pub))
        try keygen(["-q", "-s", ca, "-h", "-I", "host", "-n", "host.test", pub])
        let line = try String(contentsOfFile: folder.appendingPathComponent("host-cert.pub").path, encoding: .utf8)
        guard case .certificate(let certificate) = try PresentedHostKey.parse(line) else { throw XCTSkip("not a certificate") }
        return (host, certificate)
    }

    private static func bind(hostKeyBlob: [UInt8], sessionID: [UInt8], signature: [UInt8], forwarding: Bool = false) -> [UInt8] {
        AgentWire.sessionBind(hostKeyBlob: hostKeyBlob, sessionID: sessionID, signature: signature, forwarding: forwarding)
    }

    private static func userAuth(sessionID: [UInt8], key: PublicKey, hostKeyBlob: [UInt8]) -> [UInt8] {
        AgentWire.hostboundUserAuth(sessionID: sessionID, keyType: key.type, keyBlob: key.blob, hostKeyBlob: hostKeyBlob)
    }

    private static func lockMessage(_ type: UInt8, _ passphrase: String) -> [UInt8] { AgentWire.passphraseMessage(type, passphrase) }

    /// What a policy that allows everything was asked.
    private final class Asked: @unchecked Sendable {
        let mutex = Lock()
        var outcomes: [Bool] = []
        var locks = 0
    }

    private static func permissive(_ identity: AgentIdentity, _ asked: Asked) -> AgentPolicy {
        AgentPolicy(identities: { _ in [identity] }, maySign: { _, _, _ in true },
                    outcome: { _, _, o in asked.mutex.locked { asked.outcomes.append(o.signed) } },
                    lock: { _ in asked.mutex.locked { asked.locks += 1 }; return true },
                    unlock: { _ in asked.mutex.locked { asked.locks += 1 }; return true })
    }

    func testACertificateHostKeyBindsAndSignsOnlyForItself() throws {
        let (host, certificate) = try certifiedHostKey()
        let user = AgentIdentity(key: try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "u"), comment: "u")
        var conversation = AgentConversation(peer: AgentMessageTests.peer, policy: AgentPolicy(identities: { _ in [user] }))
        let sessionID = [UInt8](repeating: 0x5a, count: 32)
        // ssh sends the certificate as the server presented it, signed by the certified key.
        let bind = Self.bind(hostKeyBlob: certificate.blob, sessionID: sessionID, signature: try host.sign(sessionID))
        XCTAssertEqual(conversation.reply(to: bind), [6])
        XCTAssertEqual(conversation.state.destinationHostKey, .certificate(certificate), "the certificate is kept, for trust to be decided on it")
        XCTAssertFalse(conversation.state.bindFailed)

        let good = Self.userAuth(sessionID: sessionID, key: user.publicKey, hostKeyBlob: certificate.blob)
        let reply = conversation.reply(to: AgentMessageTests.signRequest(user.publicKey, good))
        XCTAssertEqual(reply.first, 14)
        var r = SSHReader(Array(reply.dropFirst()))
        XCTAssertTrue(user.publicKey.verifies(signatureBlob: try r.readString(), over: good))
        // Bound to the certificate: the hostbound method naming another host key is refused.
        let plain = Self.userAuth(sessionID: sessionID, key: user.publicKey, hostKeyBlob: host.publicKey.blob)
        XCTAssertEqual(conversation.reply(to: AgentMessageTests.signRequest(user.publicKey, plain)), [5])
    }

    func testAFailedBindRefusesEverythingAfterIt() throws {
        let (host, certificate) = try certifiedHostKey()
        let other = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "other")
        let user = AgentIdentity(key: try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "u"), comment: "u")
        let sessionID = [UInt8](repeating: 3, count: 32)
        var brokenCA = certificate.blob
        brokenCA[brokenCA.count - 1] ^= 1
        var notAKey = SSHWriter()
        notAKey.writeString("ssh-ed25519")
        notAKey.writeString([1, 2, 3])
        let failing: [(String, [UInt8])] = [
            ("a certificate signed by another key", Self.bind(hostKeyBlob: certificate.blob, sessionID: sessionID, signature: try other.sign(sessionID))),
            ("a certificate whose CA signature is broken", Self.bind(hostKeyBlob: brokenCA, sessionID: sessionID, signature: try host.sign(sessionID))),
            ("a plain key with a bad signature", Self.bind(hostKeyBlob: host.publicKey.blob, sessionID: sessionID, signature: try other.sign(sessionID))),
            ("a host key that does not parse", Self.bind(hostKeyBlob: notAKey.bytes, sessionID: sessionID, signature: try host.sign(sessionID))),
            ("a malformed session-bind", Array(Self.bind(hostKeyBlob: host.publicKey.blob, sessionID: sessionID, signature: try host.sign(sessionID)).dropLast())),
        ]
        for (what, bind) in failing {
            let asked = Asked()
            var conversation = AgentConversation(peer: AgentMessageTests.peer, policy: Self.permissive(user, asked))
            XCTAssertEqual(conversation.reply(to: bind), [5], what)
            XCTAssertTrue(conversation.state.bindFailed, what)
            XCTAssertEqual(conversation.reply(to: [11]), [12, 0, 0, 0, 0], "\(what): nothing listed")
            XCTAssertEqual(conversation.reply(to: AgentMessageTests.signRequest(user.publicKey, [1, 2, 3])), [5], "\(what): nothing signed")
            let auth = Self.userAuth(sessionID: sessionID, key: user.publicKey, hostKeyBlob: host.publicKey.blob)
            XCTAssertEqual(conversation.reply(to: AgentMessageTests.signRequest(user.publicKey, auth)), [5], what)
            // A good bind afterwards does not make the connection usable again.
            XCTAssertEqual(conversation.reply(to: Self.bind(hostKeyBlob: host.publicKey.blob, sessionID: sessionID, signature: try host.sign(sessionID))), [5], what)
            XCTAssertEqual(conversation.reply(to: [11]), [12, 0, 0, 0, 0], what)
            XCTAssertEqual(conversation.reply(to: Self.lockMessage(22, "pw")), [5], what)
            asked.mutex.locked {
                XCTAssertEqual(asked.outcomes, [false, false], "\(what): the refusals are told")
                XCTAssertEqual(asked.locks, 0, what)
            }
        }
    }

    func testLockAndUnlockAreRefusedOnAForwardedConnection() throws {
        let (host, certificate) = try certifiedHostKey()
        let user = AgentIdentity(key: try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "u"), comment: "u")
        let sessionID = [UInt8](repeating: 9, count: 32)
        for hostKey in [host.publicKey.blob, certificate.blob] {
            let asked = Asked()
            var forwarded = AgentConversation(peer: AgentMessageTests.peer, policy: Self.permissive(user, asked))
            XCTAssertEqual(forwarded.reply(to: Self.bind(hostKeyBlob: hostKey, sessionID: sessionID, signature: try host.sign(sessionID), forwarding: true)), [6])
            XCTAssertTrue(forwarded.state.isForwarded)
            XCTAssertEqual(forwarded.reply(to: Self.lockMessage(22, "pw")), [5])
            XCTAssertEqual(forwarded.reply(to: Self.lockMessage(23, "pw")), [5])
            asked.mutex.locked { XCTAssertEqual(asked.locks, 0, "the policy is not asked") }

            var local = AgentConversation(peer: AgentMessageTests.peer, policy: Self.permissive(user, asked))
            XCTAssertEqual(local.reply(to: Self.lockMessage(22, "pw")), [6])
            XCTAssertEqual(local.reply(to: Self.lockMessage(23, "pw")), [6])
            asked.mutex.locked { XCTAssertEqual(asked.locks, 2) }
        }
    }
}
