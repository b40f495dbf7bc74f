// The holes of issue 9, each found by checking hostbook against real ssh/sshd, kept as one
// regression test each (named after the hole) with the real binary where a terminal is
// needed: the scan and approve prompts (holes 2 and 11). The others run in-process:
// HostbookLogicTests/TrustCoreRegressionLogicTests.
import Foundation
import TestSupport
import XCTest

final class TrustCoreRegressionTests: XCTestCase, TestHostKeys {
    var tmp: TemporaryDirectory!
    var env: [String: String] = [:]

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        env = ["HOSTBOOK_DB": tmp.file("hostbook.db"), "HOME": tmp.path]
    }

    @discardableResult
    func hb(_ args: [String], stdin: Data = Data()) throws -> HostbookResult {
        try HostbookProcess.run(args, stdin: stdin, environment: env)
    }

    func importFile(_ bytes: [UInt8]) throws -> HostbookResult {
        let path = tmp.file("kh-\(UUID().uuidString)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try hb(["known-hosts", "import", path])
    }

    func importLines(_ text: String) throws -> HostbookResult { try importFile(Array(text.utf8)) }

    func status(_ host: String, _ key: String, port: Int = 22) throws -> Int32 {
        try hb(["known-hosts", "check", host, "--port", String(port), "--key", key]).status
    }

    // MARK: 2. scan softened a changed key when another scanned key was trusted

    func testHole2ScanShowsAChangedKeyAsChangedEvenBesideATrustedOne() throws {
        XCTAssertEqual(try hb(["known-hosts", "approve", "h.test", "--key", keyA, "--yes"]).status, 0)
        let dir = tmp.file("bin")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // The real Ed25519 key replayed, beside an attacker's ECDSA key.
        try "#!/bin/sh\nprintf '%s\\n' 'h.test \(keyA)' 'h.test \(keyC)'\n".write(toFile: dir + "/ssh-keyscan", atomically: true, encoding: .utf8)
        chmod(dir + "/ssh-keyscan", 0o755)
        env["PATH"] = dir + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let kept = try KnownHostsPseudoTerminal.run(["known-hosts", "scan", "h.test"], typing: ["yes"], environment: env)
        XCTAssertEqual(kept.status, 11, kept.screen)
        XCTAssertTrue(kept.screen.contains("REMOTE HOST IDENTIFICATION HAS CHANGED"), kept.screen)
        XCTAssertFalse(kept.screen.contains("Are you sure you want to trust this key"), kept.screen)
        XCTAssertTrue(kept.screen.contains("changed: ECDSA key \(fpC)\n"), kept.screen)
        XCTAssertEqual(try status("h.test", keyC), 11)
        XCTAssertEqual(try status("h.test", keyA), 0)
        // Only the typed fingerprint replaces; the scanned key that was trusted stays trusted.
        let replaced = try KnownHostsPseudoTerminal.run(["known-hosts", "scan", "h.test"], typing: [fpC], environment: env)
        XCTAssertEqual(replaced.status, 0, replaced.screen)
        XCTAssertTrue(replaced.screen.contains("replaced: ECDSA key \(fpC)\n"), replaced.screen)
        XCTAssertEqual(try status("h.test", keyC), 0)
        XCTAssertEqual(try status("h.test", keyA), 0)
    }

    // MARK: 11. untrusted text reached the terminal raw

    func testHole11OutsideTextIsEscapedEverywhereItIsPrinted() throws {
        let evil = "evil\u{1b}[2J\u{1b}]0;owned\u{07}.test"
        XCTAssertEqual(try importLines("\(evil) \(keyA)\nh.test,\(evil) \(keyB)\n").status, 0)
        for args in [["known-hosts", "list"], ["known-hosts", "list", "h.test"], ["known-hosts", "check", "h.test", "--key", keyA],
                     ["known-hosts", "approve", "h.test", "--key", keyA, "--yes"], ["known-hosts", "remove", "h.test"]] {
            let r = try hb(args)
            XCTAssertFalse((r.stdout + r.stderr).contains("\u{1b}"), "\(args): \((r.stdout + r.stderr).debugDescription)")
            XCTAssertFalse((r.stdout + r.stderr).contains("\u{07}"), "\(args)")
        }
        let list = try hb(["known-hosts", "list"]).stdout
        XCTAssertTrue(list.contains("evil\\u{1b}[2J\\u{1b}]0;owned\\u{7}.test"), list)
        // The approval prompt's "already trusted for" list and the changed-key banner.
        XCTAssertEqual(try importLines("h2.test,\(evil)x \(keyC)\n").status, 0)
        let prompt = try KnownHostsPseudoTerminal.run(["known-hosts", "approve", "fresh.test", "--key", keyC], typing: ["no"], environment: env)
        XCTAssertTrue(prompt.screen.contains("This key is already trusted for:\n    h2.test,evil\\u{1b}"), prompt.screen)
        let banner = try KnownHostsPseudoTerminal.run(["known-hosts", "approve", "h2.test", "--key", keyA], typing: ["no"], environment: env)
        XCTAssertTrue(banner.screen.contains("[entry 'h2.test,evil\\u{1b}[2J"), banner.screen)
        XCTAssertFalse(prompt.screen.contains("\u{1b}[2J") || banner.screen.contains("\u{1b}[2J"))
    }
}
