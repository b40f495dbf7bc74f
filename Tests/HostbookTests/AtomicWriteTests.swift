// Files hostbook writes appear whole or not at all (Sources/System/AtomicFile.swift): `keys export
// --output` writes a temporary file beside the target, fsyncs it, links it into place and
// fsyncs the folder. The tests check the result with ssh-keygen, that nothing is left
// beside it, and that a SIGKILL at any moment leaves no file or a complete one.
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

    func testAnExportedFileIsCompleteWithItsModeAndNothingBesideIt() throws {
        let folder = tmp.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let out = folder + "/id_k"
        let r = try HostbookProcess.run(["--db", db, "keys", "export", "k", "--passphrase-file", Self.passFile, "--output", out, "--rounds", "4"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["id_k"])
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(try ToolProcess.sshKeygen(["-y", "-P", Self.passphrase, "-f", out]).stdout, try expectedPublic)

        // An existing file is refused before any passphrase is read, and left as it was.
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: out))
        let again = try HostbookProcess.run(["--db", db, "keys", "export", "k", "--passphrase-stdin", "--output", out], stdin: Data())
        XCTAssertEqual(again.status, 5)
        XCTAssertEqual(again.stderr, "hostbook: '\(out)' already exists\nChoose another --output file or remove it first.\n")
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "keep me\n")
        // A dangling symbolic link is "existing" too: nothing is written through it.
        let link = folder + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder + "/target")
        XCTAssertEqual(try HostbookProcess.run(["--db", db, "keys", "export", "k", "--no-passphrase", "--output", link]).status, 5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/target"))
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
