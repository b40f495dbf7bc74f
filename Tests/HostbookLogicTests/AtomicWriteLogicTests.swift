// Files hostbook writes appear whole (Sources/System/AtomicFile.swift), in-process
// (InProcessCommand runs Hostbook.main, the real Secret Service): `keys export --output`
// leaves the complete file with its mode and nothing beside it, checked with ssh-keygen,
// and never writes over a file or through a dangling link. Moved from
// HostbookTests/AtomicWriteTests, which keeps SIGKILL during an export on the binary.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class AtomicWriteLogicTests: XCTestCase {
    static let fixtures = PackageRoot.file("testkeys/openssh")
    static let passFile = fixtures.appendingPathComponent("PASSPHRASE").path
    static let passphrase = "hostbook-test-passphrase"

    var cli: InProcessCommand!
    var tmp: TempFolder { cli.folder }
    var db: String { tmp.file("hostbook.db") }

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no D-Bus session: run the tests inside scripts/with-keyring")
        }
        cli = try InProcessCommand()
        let r = try cli.call(["--db", db, "keys", "import", Self.fixtures.appendingPathComponent("ed25519_none").path, "--name", "k"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    override func tearDown() { cli = nil }

    private var expectedPublic: String {
        get throws { try String(contentsOfFile: Self.fixtures.appendingPathComponent("ed25519_none.pub").path, encoding: .utf8) }
    }

    func testAnExportedFileIsCompleteWithItsModeAndNothingBesideIt() throws {
        let folder = tmp.file("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let out = folder + "/id_k"
        let r = try cli.call(["--db", db, "keys", "export", "k", "--passphrase-file", Self.passFile, "--output", out, "--rounds", "4"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["id_k"])
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", ["-y", "-P", Self.passphrase, "-f", out]).stdout, try expectedPublic)

        // An existing file is refused before any passphrase is read, and left as it was.
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: out))
        let again = try cli.call(["--db", db, "keys", "export", "k", "--passphrase-stdin", "--output", out])
        XCTAssertEqual(again.status, 5)
        XCTAssertEqual(again.stderr, "hostbook: '\(out)' already exists\nChoose another --output file or remove it first.\n")
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "keep me\n")
        // A dangling symbolic link is "existing" too: nothing is written through it.
        let link = folder + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder + "/target")
        XCTAssertEqual(try cli.call(["--db", db, "keys", "export", "k", "--no-passphrase", "--output", link]).status, 5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/target"))
    }
}
