// Ctrl-C at a no-echo prompt gives the terminal its echo back before hostbook exits 130
// (CLI/Terminal.swift). The real binary runs on a pseudo-terminal that is its controlling
// terminal (setsid --ctty), so ^C typed on it is a real SIGINT from the terminal driver.
import Foundation
import Glibc
import XCTest

final class TerminalInterruptTests: XCTestCase {
    private func echoIsOn(_ fd: Int32) -> Bool {
        var t = termios()
        XCTAssertEqual(tcgetattr(fd, &t), 0)
        return t.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Reads from `master` until `text` has been shown (or 20 s pass); returns the screen.
    private func waitFor(_ text: String, on master: Int32, screen: inout [UInt8]) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            if String(decoding: screen, as: UTF8.self).contains(text) { return true }
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 200) > 0 else { continue }
            let n = read(master, &buffer, buffer.count)
            if n > 0 { screen += buffer[0..<n] } else if n < 0 && errno != EINTR { return false }
        }
        return false
    }

    private func interruptAtPasswordPrompt(with key: UInt8, expectStatus: Int32) throws {
        let tmp = try TemporaryDirectory()
        let db = tmp.file("data/hostbook.db")
        var master: Int32 = -1, slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw XCTSkip("openpty is not available") }
        defer { close(master); close(slave) }
        XCTAssertTrue(echoIsOn(slave))
        let p = Process()
        try TestAccount.prepare(p, ["/usr/bin/setsid", "--ctty", "--wait", HostbookProcess.binaryURL.path, "--db", db, "add", "web", "--hostname", "h",
                                    "--password-stdin"], environment: [:], removing: [], account: TestAccount.shared, terminal: slave)
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        p.standardInput = handle
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        var screen: [UInt8] = []
        XCTAssertTrue(waitFor("Password for web: ", on: master, screen: &screen), String(decoding: screen, as: UTF8.self))
        XCTAssertFalse(echoIsOn(slave), "the prompt turned echo off")
        // Half a password, then the interrupt key (the terminal takes the bytes in order, so
        // the key comes after the half password whenever it is written).
        _ = "hunter".withCString { write(master, $0, 6) }
        var k = key
        _ = write(master, &k, 1)
        let deadline = Date().addingTimeInterval(20)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while p.isRunning && Date() < deadline {
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 50) > 0 {
                let n = read(master, &buffer, buffer.count)
                if n > 0 { screen += buffer[0..<n] }
            }
        }
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(p.terminationStatus, expectStatus, String(decoding: screen, as: UTF8.self))
        XCTAssertTrue(echoIsOn(slave), "the terminal got its echo back")
        let shown = String(decoding: screen, as: UTF8.self)
        XCTAssertFalse(shown.contains("hunter"), shown)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.file("data")), "nothing was written")
    }

    func testCtrlCAtANoEchoPromptRestoresTheTerminalAndExits130() throws {
        try interruptAtPasswordPrompt(with: 0x03, expectStatus: 130)
    }

    func testCtrlBackslashIsHandledTheSameWay() throws {
        try interruptAtPasswordPrompt(with: 0x1c, expectStatus: 128 + SIGQUIT)
    }
}
