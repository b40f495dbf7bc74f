// Files hostbook writes appear whole or not at all (Sources/System/AtomicFile.swift): `keys export
// --output` writes a temporary file beside the target, fsyncs it, links it into place and
// fsyncs the folder. Here: a SIGKILL at any moment leaves no file or a complete one. The
// exported file's content, mode and that nothing is left beside it are checked in-process:
// HostbookLogicTests/AtomicWriteLogicTests.
import Foundation
import XCTest

final class AtomicWriteTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("testkeys/openssh")
    static let passFile = fixtures.appendingPathComponent("PASSPHRASE").path
    static let passphrase = "hostbook-test-passphrase"

    var tmp: TemporaryDirectory!
    var db: String { tmp.file("hostbook.db") }

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no D-Bus session: run the tests inside scripts/with-keyring")
        }
        tmp = try TemporaryDirectory()
        let r = try HostbookProcess.run(["--db", db, "keys", "import", Self.fixtures.appendingPathComponent("ed25519_none").path, "--name", "k"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    override func tearDown() { tmp = nil }

    private var expectedPublic: String {
        get throws { try String(contentsOfFile: Self.fixtures.appendingPathComponent("ed25519_none.pub").path, encoding: .utf8) }
    }

    /// SIGKILL at moments spread over the whole export: each time the target is absent or
    /// a complete key file, never a truncated one.
    func testSIGKILLDuringAnExportLeavesNoFileOrAWholeOne() throws {
        let folder = tmp.file("kill")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        var complete = 0, absent = 0
        for attempt in 0..<24 {
            let out = folder + "/id_\(attempt)"
            let p = Process()
            try TestAccount.prepare(p, [HostbookProcess.binaryURL.path, "--db", db, "keys", "export", "k", "--passphrase-file", Self.passFile,
                                        "--output", out, "--rounds", "2"],
                                    environment: [:], removing: [], account: TestAccount.shared, terminal: nil)
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            // Killed at one of four moments, each seen, not timed: as soon as hostbook runs, once
            // it has the database open, once its temporary file is there, once the target is.
            let pid = p.processIdentifier
            let stage: () -> Bool = switch attempt % 4 {
            case 0: { (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == "hostbook\n" }
            case 1: { ProcFS.openFiles(of: pid).contains { $0.hasSuffix("/hostbook.db") } }
            case 2: { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains { $0.hasPrefix(".id_\(attempt).") } }
            default: { FileManager.default.fileExists(atPath: out) }
            }
            var polls = 0
            while p.isRunning, !stage(), polls < 100_000 { polls += 1; usleep(50) }
            kill(pid, SIGKILL)
            p.waitUntilExit()
            if FileManager.default.fileExists(atPath: out) {
                XCTAssertEqual(try ToolProcess.sshKeygen(["-y", "-P", Self.passphrase, "-f", out]).stdout, try expectedPublic, "attempt \(attempt)")
                complete += 1
            } else {
                absent += 1
            }
        }
        // The moments cover both outcomes (the last one comes after the target is in place).
        XCTAssertGreaterThan(complete, 0)
        XCTAssertGreaterThan(absent, 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        XCTAssertTrue(names.allSatisfy { $0.hasPrefix("id_") || ($0.hasPrefix(".id_") && $0.hasSuffix(".tmp")) }, "\(names)")
    }
}
