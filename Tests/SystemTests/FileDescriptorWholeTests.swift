// Reading and writing whole through pipes: pieces arrive apart, a writer outruns the pipe's
// buffer, limits hold, and reads interrupted by a signal carry on.
#if canImport(Glibc)
import Glibc
#endif
import System
import XCTest

final class FileDescriptorWholeTests: XCTestCase {
    func testReadFullyJoinsPiecesWrittenApart() throws {
        let pipe = try UnixPipe()
        defer { close(pipe.readEnd) }
        let writer = pipe.writeEnd
        // The reader asks for 12 bytes; they come as three writes from another thread, so a
        // read(2) may return only a part.
        let thread = try Thread.spawn {
            for piece in ["abcd", "efgh", "ijkl"] {
                try? FileDescriptor(writer).writeAll(Array(piece.utf8))
                sched_yield()
            }
            close(writer)
        }
        var buffer = [UInt8](repeating: 0, count: 12)
        XCTAssertTrue(FileDescriptor(pipe.readEnd).readExactly(&buffer))
        Thread.join(thread)
        XCTAssertEqual(String(decoding: buffer, as: UTF8.self), "abcdefghijkl")
    }

    func testReadExactlyFailsAtAnEarlyEnd() throws {
        let pipe = try UnixPipe()
        defer { close(pipe.readEnd) }
        try FileDescriptor(pipe.writeEnd).writeAll(Array("abc".utf8))
        close(pipe.writeEnd)
        var buffer = [UInt8](repeating: 0, count: 4)
        XCTAssertFalse(FileDescriptor(pipe.readEnd).readExactly(&buffer))
    }

    func testWriteAllOutrunsThePipeBuffer() throws {
        let pipe = try UnixPipe()
        defer { close(pipe.readEnd) }
        // 1 MiB: sixteen times a default pipe buffer, so write(2) returns short.
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let writer = pipe.writeEnd
        let thread = try Thread.spawn {
            try? FileDescriptor(writer).writeAll(bytes)
            close(writer)
        }
        let read = try FileDescriptor(pipe.readEnd).readToEnd(limit: 2 << 20)
        Thread.join(thread)
        XCTAssertEqual(read, bytes)
    }

    func testReadToEndRefusesMoreThanTheLimit() throws {
        let pipe = try UnixPipe()
        defer { close(pipe.readEnd) }
        try FileDescriptor(pipe.writeEnd).writeAll([UInt8](repeating: 1, count: 101))
        close(pipe.writeEnd)
        XCTAssertThrowsError(try FileDescriptor(pipe.readEnd).readToEnd(limit: 100)) { error in
            XCTAssertEqual(error as? FileDescriptor.ReadToEndError, .tooLong)
        }
    }

    func testReadToEndTakesExactlyTheLimit() throws {
        let pipe = try UnixPipe()
        defer { close(pipe.readEnd) }
        try FileDescriptor(pipe.writeEnd).writeAll([UInt8](repeating: 1, count: 100))
        close(pipe.writeEnd)
        XCTAssertEqual(try FileDescriptor(pipe.readEnd).readToEnd(limit: 100).count, 100)
    }

    func testReadPrefixStopsAtTheLimitAndDrainingKeepsTheStart() throws {
        let pipe = try UnixPipe()
        defer { close(pipe.readEnd) }
        try FileDescriptor(pipe.writeEnd).writeAll(Array("0123456789".utf8))
        close(pipe.writeEnd)
        XCTAssertEqual(try FileDescriptor(pipe.readEnd).readPrefix(limit: 4), Array("0123".utf8))
        XCTAssertEqual(FileDescriptor(pipe.readEnd).readDraining(keep: 3), Array("456".utf8))
        XCTAssertEqual(FileDescriptor(pipe.readEnd).readDraining(keep: 3), [])
    }

    func testWriteToAClosedPipeIsAnErrorNotASignal() throws {
        let pipe = try UnixPipe()
        close(pipe.readEnd)
        defer { close(pipe.writeEnd) }
        let old = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, old) }
        XCTAssertThrowsError(try FileDescriptor(pipe.writeEnd).writeAll([1, 2, 3])) { error in
            XCTAssertEqual(error as? Errno, Errno(EPIPE))
        }
    }

    /// A handler without SA_RESTART makes a read blocked on a pipe fail with EINTR; the
    /// reader must carry on. The signal is sent to the reading thread before every byte, so
    /// some arrive while it is blocked (how many is not asserted: that is up to the scheduler).
    func testReadsInterruptedBySignalsCarryOn() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var old = sigaction()
        XCTAssertEqual(sigaction(SIGUSR1, &action, &old), 0)
        defer { sigaction(SIGUSR1, &old, nil) }

        let pipe = try UnixPipe()
        defer { close(pipe.readEnd) }
        let count = 200
        let reader = pipe.readEnd
        let result = Lock<[UInt8]?>(nil)
        let started = Lock(false)
        let thread = try Thread.spawn {
            started.withLock { $0 = true; started.broadcast() }
            var buffer = [UInt8](repeating: 0, count: count)
            let ok = FileDescriptor(reader).readExactly(&buffer)
            result.withLock { $0 = ok ? buffer : [] }
        }
        started.withLock { ready in while !ready { started.wait() } }
        for i in 0..<count {
            pthread_kill(thread, SIGUSR1)
            sched_yield()
            try FileDescriptor(pipe.writeEnd).writeAll([UInt8(i & 0xff)])
        }
        close(pipe.writeEnd)
        Thread.join(thread)
        XCTAssertEqual(result.withLock { $0 }, (0..<count).map { UInt8($0 & 0xff) })
    }
}
