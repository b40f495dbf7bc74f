// What an upstream agent's reply may cost hostbook, with a hostile upstream played by a
// socket in this process (one connection, one scripted answer): a frame larger than the
// limit is not read, a listing longer than the limit is refused before its keys are kept,
// a reply that never comes is given up, a signature that does not verify (or an RSA
// signature in a weaker algorithm than asked) is never handed on, and a socket nobody
// listens at is "not running". Each is an UpstreamAgentError, never a crash or a hang.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import Agent
import KeyFormats
import System

final class UpstreamAgentBoundsTests: XCTestCase {
    private var temp: TempFolder!
    private var folder: String!

    override func setUpWithError() throws {
        temp = try TempFolder()
        folder = temp.path
    }

    override func tearDown() {
        temp = nil
    }

    /// Listens at a socket, takes one connection, reads one request frame, then writes
    /// `answer` (raw bytes, framing included) or nothing, and keeps the connection open
    /// until the client closes it.
    private func hostileUpstream(_ answer: [UInt8]?) throws -> (socket: String, thread: pthread_t) {
        let path = folder + "/up.sock"
        unlink(path)
        let listener = try UnixSocket.listen(at: path)
        let thread = try System.Thread.spawn {
            defer { close(listener) }
            guard (try? Poll.wait(listener, events: Int16(POLLIN), timeoutMilliseconds: 30_000)) == true,
                  case .success(let fd) = UnixSocket.acceptConnection(listener) else { return }
            defer { close(fd) }
            _ = LengthPrefixedFrame.read(from: fd, maxLength: 1 << 20)
            if let answer { _ = answer.withUnsafeBytes { try? FileDescriptor(fd).sendAll($0) } }
            // Until the client hangs up.
            var byte = [UInt8](repeating: 0, count: 1)
            _ = FileDescriptor(fd).readExactly(&byte)
        }
        return (path, thread)
    }

    private func identities(_ answer: [UInt8]?, limits: UpstreamAgentLimits = .standard) throws -> Result<[UpstreamIdentity], UpstreamAgentError> {
        let (socket, thread) = try hostileUpstream(answer)
        defer { pthread_join(thread, nil) }
        return Result { () throws(UpstreamAgentError) in try UpstreamAgent(socket: socket, limits: limits).identities() }
    }

    private static func frame(_ body: [UInt8]) -> [UInt8] { LengthPrefixedFrame.encode(body) }

    func testAFrameLargerThanTheLimitIsNotRead() throws {
        // The header announces 16 MiB; nothing follows it.
        let result = try identities([0x01, 0x00, 0x00, 0x00, 12])
        XCTAssertEqual(result.failure?.kind, .noAnswer)
    }

    func testAListingLongerThanTheLimitIsRefused() throws {
        var w = SSHWriter()
        w.writeByte(12)
        w.writeUInt32(3)
        for i in 0..<3 {
            w.writeString(PublicKey(.ed25519(publicKey: Array(repeating: UInt8(i), count: 32))).blob)
            w.writeString("k\(i)")
        }
        var limits = UpstreamAgentLimits.standard
        limits.maxKeys = 2
        XCTAssertEqual(try identities(Self.frame(w.bytes), limits: limits).failure?.kind, .badReply(.tooManyKeys))
        // Within the limit the same listing reads.
        XCTAssertEqual(try identities(Self.frame(w.bytes)).success?.map(\.comment), ["k0", "k1", "k2"])
    }

    func testACountTheBodyCannotHoldIsMalformed() throws {
        var w = SSHWriter()
        w.writeByte(12)
        w.writeUInt32(1000)
        XCTAssertEqual(try identities(Self.frame(w.bytes)).failure?.kind, .badReply(.malformed))
    }

    func testAReplyThatNeverComesIsGivenUp() throws {
        var limits = UpstreamAgentLimits.standard
        limits.listMilliseconds = 100
        XCTAssertEqual(try identities(nil, limits: limits).failure?.kind, .noAnswer)
    }

    func testASocketNobodyListensAtIsNotRunning() throws {
        let result = Result { () throws(UpstreamAgentError) in try UpstreamAgent(socket: folder + "/nobody.sock").identities() }
        XCTAssertEqual(result.failure, UpstreamAgentError(.notRunning, socket: folder + "/nobody.sock"))
    }

    func testOnlyASignatureThatVerifiesInTheAskedAlgorithmIsHandedOn() throws {
        let key = try PrivateKeyGenerator.generate(.rsa, bits: 2048, comment: "")
        let data: [UInt8] = [1, 2, 3]
        func sign(answer signature: [UInt8], asking hash: RSASignatureHash) throws -> Result<[UInt8], UpstreamAgentError> {
            var w = SSHWriter()
            w.writeByte(14)
            w.writeString(signature)
            let (socket, thread) = try hostileUpstream(Self.frame(w.bytes))
            defer { pthread_join(thread, nil) }
            return Result { () throws(UpstreamAgentError) in try UpstreamAgent(socket: socket).sign(data, with: key.publicKey, rsaHash: hash) }
        }
        let good = try key.sign(data, rsaHash: .sha512)
        XCTAssertEqual(try sign(answer: good, asking: .sha512).success, good)
        // Valid, but ssh-rsa (SHA-1) where rsa-sha2-512 was asked.
        XCTAssertEqual(try sign(answer: try key.sign(data, rsaHash: .sha1), asking: .sha512).failure?.kind, .badReply(.badSignature))
        // Another message's signature.
        XCTAssertEqual(try sign(answer: try key.sign([9], rsaHash: .sha512), asking: .sha512).failure?.kind, .badReply(.badSignature))
    }
}

private extension Result {
    var failure: Failure? { if case .failure(let e) = self { e } else { nil } }
    var success: Success? { if case .success(let s) = self { s } else { nil } }
}
