// No secret byte ever in the data folder, in-process (InProcessCommand runs Hostbook.main
// on real files, the real Secret Service inside scripts/with-keyring): passwords given to
// add and edit, a key's passphrase and private scalar. Moved from
// HostbookTests/ReliabilityTests, which keeps concurrent writers and SIGKILL in the middle
// of writes on the binary.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class NoSecretInTheDataFolderTests: XCTestCase {
    var hb: InProcessCommand!

    override func tearDown() { hb = nil }

    override func setUpWithError() throws { hb = try InProcessCommand() }

    /// No file in the data folder (database, -wal, -shm, backups) ever holds a byte sequence
    /// of a password given to hostbook.
    func testNoSecretEverReachesTheDataFolder() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else { return XCTFail("needs a Secret Service: run inside scripts/with-keyring") }
        // Start from an old database so a migration backup is among the files.
        try FileManager.default.createDirectory(atPath: hb.dir.file("data"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PackageRoot.path + "/testdata/hoststore/hostbook-v1.db", toPath: hb.db)
        let secrets = (0..<4).map { "pw-\($0)-" + UUID().uuidString.replacingOccurrences(of: "-", with: "") }
        try hb.ok("add", "s1", "--hostname", "s1.example", "--password-stdin", stdin: secrets[0] + "\n")
        try hb.ok("add", "s2", "--hostname", "s2.example", "--user", "u", "--password-stdin", stdin: secrets[1])
        try hb.ok("edit", "s1", "--password-stdin", stdin: secrets[2])
        try hb.ok("edit", "s2", "--rename", "s3", "--password-stdin", stdin: secrets[3])
        try hb.ok("remove", "s3", "--yes")
        XCTAssertTrue(hb.files().contains("hostbook.db.v1.bak"), "\(hb.files())")
        for f in hb.files() {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: hb.dir.file("data/" + f)))
            for s in secrets {
                XCTAssertNil(bytes.range(of: Data(s.utf8)), "\(f) holds a password")
                // A fragment (the random part) must not appear either.
                XCTAssertNil(bytes.range(of: Data(s.suffix(16).utf8)), "\(f) holds part of a password")
            }
        }
    }

    /// Key material too: a passphrase-protected key imported with `keys import` leaves
    /// neither its passphrase nor its private scalar in any file of the data folder.
    /// (A PEM key and its private scalar, from testkeys/sshkey: testkeys/make-sshkey-set.sh.)
    func testNoPassphraseOrPrivateKeyReachesTheDataFolder() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else { return XCTFail("needs a Secret Service: run inside scripts/with-keyring") }
        let dir = PackageRoot.path + "/testkeys/sshkey"
        let passphrase = try String(contentsOfFile: dir + "/PASSPHRASE", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        var scalarHex = try String(contentsOfFile: dir + "/ecdsa_1.param.priv", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        while scalarHex.hasPrefix("00") { scalarHex.removeFirst(2) }
        var scalar = [UInt8]()
        var i = scalarHex.startIndex
        while i < scalarHex.endIndex {
            let j = scalarHex.index(i, offsetBy: 2)
            scalar.append(UInt8(scalarHex[i..<j], radix: 16)!)
            i = j
        }
        XCTAssertGreaterThanOrEqual(scalar.count, 31)
        try FileManager.default.createDirectory(atPath: hb.dir.file("data"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PackageRoot.path + "/testdata/hoststore/hostbook-v1.db", toPath: hb.db)
        let r = try hb.run(["keys", "import", dir + "/ecdsa_1_pw", "--name", "pw-key", "--passphrase-stdin"], stdin: passphrase + "\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        try hb.ok("add", "k", "--hostname", "k.example", "--key", "pw-key")
        for f in hb.files() {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: hb.dir.file("data/" + f)))
            XCTAssertNil(bytes.range(of: Data(passphrase.utf8)), "\(f) holds the passphrase")
            XCTAssertNil(bytes.range(of: Data(scalar)), "\(f) holds the private key")
            XCTAssertNil(bytes.range(of: Data(scalar.prefix(16))), "\(f) holds part of the private key")
            XCTAssertNil(bytes.range(of: Data(scalarHex.utf8)), "\(f) holds the private key in hex")
        }
    }
}
