// The approval prompt and the changed-key warning on a real (pseudo-)terminal.
import Foundation
import TestSupport
import XCTest

final class KnownHostsPromptTests: XCTestCase, TestHostKeys {
    var tmp: TemporaryDirectory!
    var env: [String: String] = [:]

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        env = ["HOSTBOOK_DB": tmp.file("hostbook.db"), "HOME": tmp.path]
    }

    func terminal(_ args: [String], typing: [String]) throws -> KnownHostsPseudoTerminal.Result {
        try KnownHostsPseudoTerminal.run(args, typing: typing, environment: env)
    }

    func status(_ host: String, _ key: String, port: Int = 22) throws -> Int32 {
        try HostbookProcess.run(["known-hosts", "check", host, "--port", String(port), "--key", key], environment: env).status
    }

    func testApprovalPromptShowsTheKeyAndAcceptsYes() throws {
        // The same key already trusted under another name is shown, as ssh does.
        XCTAssertEqual(try HostbookProcess.run(["known-hosts", "approve", "other.test", "--key", keyA, "--yes"], environment: env).status, 0)
        let r = try terminal(["known-hosts", "approve", "h.test", "--port", "2222", "--key", keyA], typing: ["yes"])
        XCTAssertEqual(r.status, 0, r.screen)
        XCTAssertTrue(r.screen.contains("The authenticity of host 'h.test' (port 2222) can't be established.\nED25519 key fingerprint is \(fpA).\n"), r.screen)
        XCTAssertTrue(r.screen.contains("[ED25519 256]") && r.screen.contains("+----[SHA256]-----+\n"), r.screen)   // the randomart frame
        // The picture is ssh-keygen's own (ssh-keygen -lv prints it after the fingerprint line).
        let pub = tmp.file("a.pub")
        try (keyA + "\n").write(toFile: pub, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        p.arguments = ["-lv", "-f", pub]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let picture = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").dropFirst().joined(separator: "\n")
        p.waitUntilExit()
        XCTAssertTrue(r.screen.contains(picture + "\n"), "expected:\n\(picture)\nscreen:\n\(r.screen)")
        XCTAssertTrue(r.screen.contains("This key is already trusted for:\n    other.test\n"), r.screen)
        XCTAssertTrue(r.screen.contains("Are you sure you want to trust this key (yes/no/[fingerprint])? "), r.screen)
        XCTAssertTrue(r.screen.contains("Approved: the ED25519 key \(fpA) is now trusted for 'h.test' (port 2222).\n"), r.screen)
        XCTAssertEqual(try status("h.test", keyA, port: 2222), 0)
    }

    func testApprovalAcceptsTheFingerprintAndReasksOnOtherAnswers() throws {
        let r = try terminal(["known-hosts", "approve", "h.test", "--key", keyA], typing: ["maybe", fpB, fpA])
        XCTAssertEqual(r.status, 0, r.screen)
        XCTAssertTrue(r.screen.contains("This key is not known by any other names.\n"), r.screen)
        XCTAssertEqual(r.screen.components(separatedBy: "Please type 'yes', 'no' or the fingerprint: ").count - 1, 2, r.screen)
        XCTAssertEqual(try status("h.test", keyA), 0)
    }

    func testNoRejectsAndRecordsIt() throws {
        let r = try terminal(["known-hosts", "approve", "h.test", "--key", keyA], typing: ["no"])
        XCTAssertEqual(r.status, 10, r.screen)
        XCTAssertTrue(r.screen.hasSuffix("hostbook: not approved: the key for 'h.test' stays unknown\n"), r.screen)
        XCTAssertEqual(try status("h.test", keyA), 10)
        let list = try HostbookProcess.run(["known-hosts", "history", "h.test", "--json"], environment: env)
        XCTAssertTrue(list.stdout.contains("\"event\": \"rejected\""), list.stdout)
    }

    func testChangedKeyWarningReplacesOnlyOnTheTypedFingerprint() throws {
        XCTAssertEqual(try HostbookProcess.run(["known-hosts", "approve", "h.test", "--key", keyA, "--yes"], environment: env).status, 0)
        // "yes" is not enough for a changed key.
        let kept = try terminal(["known-hosts", "approve", "h.test", "--key", keyB], typing: ["yes"])
        XCTAssertEqual(kept.status, 11, kept.screen)
        XCTAssertTrue(kept.screen.contains("@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @"), kept.screen)
        XCTAssertTrue(kept.screen.contains("The ED25519 key offered for 'h.test' has the fingerprint\n    \(fpB)\n"), kept.screen)
        XCTAssertTrue(kept.screen.range(of: "The stored key for this host:\n    ssh-ed25519 \(NSRegularExpression.escapedPattern(for: fpA)), approved 20[0-9-]+T[0-9:]+Z \\(manual\\)\n",
                                        options: .regularExpression) != nil, kept.screen)
        XCTAssertTrue(kept.screen.hasSuffix("hostbook: the host key for 'h.test' has changed; the stored key was kept\n"), kept.screen)
        XCTAssertEqual(try status("h.test", keyA), 0)
        XCTAssertEqual(try status("h.test", keyB), 11)

        let replaced = try terminal(["known-hosts", "approve", "h.test", "--key", keyB], typing: [fpB])
        XCTAssertEqual(replaced.status, 0, replaced.screen)
        XCTAssertTrue(replaced.screen.contains("Replaced: the ED25519 key \(fpB) is now trusted for 'h.test'.\n"), replaced.screen)
        XCTAssertEqual(try status("h.test", keyB), 0)
        XCTAssertEqual(try status("h.test", keyA), 11)
    }

    func testScanAsksAboutEachNewKey() throws {
            let dir = tmp.file("bin")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "#!/bin/sh\nprintf '%s\\n' 'h.test \(keyA)' 'h.test \(keyC)'\n".write(toFile: dir + "/ssh-keyscan", atomically: true, encoding: .utf8)
        chmod(dir + "/ssh-keyscan", 0o755)
        env["PATH"] = dir + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = try terminal(["known-hosts", "scan", "h.test"], typing: ["yes", "no"])
        XCTAssertEqual(r.status, 10, r.screen)
        XCTAssertTrue(r.screen.contains("approved: ED25519 key \(fpA)\n"), r.screen)
        XCTAssertTrue(r.screen.contains("rejected: ECDSA key SHA256:lKrxC8bEZvuDW15B6H8ULQ3d19oh+uQ33ndnWjjh/Dk\n"), r.screen)
        XCTAssertEqual(try status("h.test", keyA), 0)
        // Scanning again: the ED25519 key is trusted, and the ECDSA key (another type, for a
        // name that has entries) is CHANGED, as ssh says: the banner, and only the typed
        // fingerprint adds it (issue 9, hole 2).
        let again = try terminal(["known-hosts", "scan", "h.test"], typing: ["SHA256:lKrxC8bEZvuDW15B6H8ULQ3d19oh+uQ33ndnWjjh/Dk"])
        XCTAssertEqual(again.status, 0, again.screen)
        XCTAssertTrue(again.screen.contains("trusted: ED25519 key \(fpA)\n"), again.screen)
        XCTAssertTrue(again.screen.contains("REMOTE HOST IDENTIFICATION HAS CHANGED"), again.screen)
        XCTAssertEqual(try status("h.test", keyA), 0)
        XCTAssertEqual(try status("h.test", keyC), 0)
    }
}
