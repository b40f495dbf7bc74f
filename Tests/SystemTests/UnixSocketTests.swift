// Unix sockets: a 0600 listener, connect and accept, the peer's credentials from the
// kernel, and length-prefixed frames with their bounds.
#if canImport(Glibc)
import Glibc
#endif
import System
import TestSupport
import XCTest

final class UnixSocketTests: XCTestCase {
    /// A listener, a connected client, and the accepted server end.
    func connectedPair(_ folder: TempFolder) throws -> (listener: Int32, client: Int32, server: Int32) {
        let path = folder.path + "/s.sock"
        let listener = try UnixSocket.listen(at: path)
        let client = try UnixSocket.connect(to: path)
        XCTAssertTrue(try Poll.wait(listener, events: Int16(POLLIN), timeoutMilliseconds: -1))
        let server = try UnixSocket.acceptConnection(listener).get()
        return (listener, client, server)
    }

    func testTheSocketFileIsPrivate() throws {
        let folder = try TempFolder()
        let old = umask(0)
        defer { umask(old) }
        let fd = try UnixSocket.listen(at: folder.path + "/s.sock")
        defer { close(fd) }
        var info = stat()
        XCTAssertEqual(lstat(folder.path + "/s.sock", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFSOCK)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
    }

    func testPeerCredentialsAreThisProcess() throws {
        let folder = try TempFolder()
        let (listener, client, server) = try connectedPair(folder)
        defer { close(listener); close(client); close(server) }
        let expected = UnixSocket.PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())
        XCTAssertEqual(UnixSocket.peerCredentials(server), expected)
        XCTAssertEqual(UnixSocket.peerCredentials(client), expected)
    }

    func testAcceptWithNoClientIsEAGAIN() throws {
        let folder = try TempFolder()
        let listener = try UnixSocket.listen(at: folder.path + "/s.sock")
        defer { close(listener) }
        XCTAssertEqual(UnixSocket.acceptConnection(listener), .failure(Errno(EAGAIN)))
    }

    func testConnectFailures() throws {
        let folder = try TempFolder()
        XCTAssertEqual((try? UnixSocket.connect(to: folder.path + "/none.sock")).map { _ in 0 }, nil)
        let long = folder.path + "/" + String(repeating: "x", count: UnixSocket.maxPathLength)
        XCTAssertThrowsError(try UnixSocket.connect(to: long)) { error in
            XCTAssertEqual((error as? UnixSocket.Failure)?.step, .pathTooLong)
        }
        XCTAssertThrowsError(try UnixSocket.listen(at: long))
    }

    func testFramesGoThroughWhole() throws {
        let folder = try TempFolder()
        let (listener, client, server) = try connectedPair(folder)
        defer { close(listener); close(client); close(server) }
        let body = (0..<70_000).map { UInt8(truncatingIfNeeded: $0) }
        let thread = try Thread.spawn { _ = LengthPrefixedFrame.write(body, to: client) }
        XCTAssertEqual(LengthPrefixedFrame.read(from: server, maxLength: 100_000), body)
        Thread.join(thread)
        XCTAssertEqual(LengthPrefixedFrame.encode([9]), [0, 0, 0, 1, 9])
    }

    func testFrameBounds() throws {
        let folder = try TempFolder()
        let (listener, client, server) = try connectedPair(folder)
        defer { close(listener); close(client); close(server) }
        // Over the maximum: refused before the body is read.
        XCTAssertTrue(LengthPrefixedFrame.write([UInt8](repeating: 1, count: 11), to: client))
        XCTAssertNil(LengthPrefixedFrame.read(from: server, maxLength: 10))
        XCTAssertEqual(LengthPrefixedFrame.read(from: server, minLength: 0, maxLength: 11), nil)   // the stream is now mid-body
        // Below the minimum (an empty frame).
        let (l2, c2, s2) = try connectedPair(TempFolder())
        defer { close(l2); close(c2); close(s2) }
        XCTAssertTrue(LengthPrefixedFrame.write([], to: c2))
        XCTAssertNil(LengthPrefixedFrame.read(from: s2, minLength: 1, maxLength: 10))
        // A frame cut short by the peer.
        let (l3, c3, s3) = try connectedPair(TempFolder())
        defer { close(l3); close(s3) }
        try FileDescriptor(c3).writeAll([0, 0, 0, 5, 1, 2])
        close(c3)
        XCTAssertNil(LengthPrefixedFrame.read(from: s3, maxLength: 10))
    }

    func testWritingToAGonePeerIsFalseNotSIGPIPE() throws {
        let folder = try TempFolder()
        let (listener, client, server) = try connectedPair(folder)
        defer { close(listener); close(client) }
        close(server)
        // MSG_NOSIGNAL: no SIGPIPE kills the test process.
        XCTAssertFalse(LengthPrefixedFrame.write([1, 2, 3], to: client) && LengthPrefixedFrame.write([1, 2, 3], to: client))
    }
}
