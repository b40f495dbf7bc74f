// hostbook doctor's report (text and --json, exit status) on healthy and inconsistent
// data, in-process (InProcessCommand runs Hostbook.main on a real SQLite file, the real
// Secret Service inside scripts/with-keyring). The database checks themselves are tested in
// HostStoreTests/DatabaseChecksTests. Moved from HostbookTests/DoctorCommandTests, which
// keeps doctor with no Secret Service reachable.
import Foundation
@testable import hostbook
import HostStore
import TestSupport
import XCTest

final class DoctorCommandLogicTests: XCTestCase {
    var hb: InProcessCommand!

    override func tearDown() { hb = nil }

    // InProcessCommand gives a home of its own, so doctor's ssh-config line does not depend
    // on whether the user running the tests has installed hostbook's ssh configuration.
    override func setUpWithError() throws { hb = try InProcessCommand() }

    struct Report {
        let status: Int32
        let checks: [String]
        let messages: [String]
        let healthy: Bool
    }

    func doctor() throws -> Report {
        let r = try hb.run(["doctor", "--json"])
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any], r.stderr)
        let findings = try XCTUnwrap(o["findings"] as? [[String: Any]])
        for f in findings { XCTAssertFalse((f["fix"] as? String ?? "").isEmpty, "every finding says how to fix it") }
        return Report(status: r.status, checks: findings.compactMap { $0["check"] as? String },
                      messages: findings.compactMap { $0["message"] as? String }, healthy: o["healthy"] as? Bool ?? false)
    }

    func testNoDatabaseIsHealthy() throws {
        let r = try hb.run("doctor")
        XCTAssertEqual(r.status, 0)
        let ssh = try SSHDoctorLine.expected()
        XCTAssertEqual(r.stdout, "Database: none yet at \(hb.db) (the first command that writes creates it).\n\(ssh)ssh-config: not installed (hostbook ssh-config --install).\nNo problems found.\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: hb.dir.file("data")))
    }

    func testOpenFileModesAreReported() throws {
        try hb.ok("add", "a", "--hostname", "a.example")
        chmod(hb.db, 0o644)
        chmod(hb.dir.file("data"), 0o755)
        let r = try doctor()
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(Array(r.messages.prefix(2)), [
            "the folder '\(hb.dir.file("data"))' can be read by other users (mode 0755)",
            "the file '\(hb.db)' can be read or written by other users (mode 0644)",
        ])
        let text = try hb.run("doctor").stdout
        XCTAssertTrue(text.contains("warning: the file '\(hb.db)' can be read or written by other users (mode 0644)\n  fix: Run: chmod 600 '\(hb.db)'\n"), text)
    }

    func testAnOldSchemaIsReportedAndLeftAlone() throws {
        try FileManager.default.createDirectory(atPath: hb.dir.file("data"), withIntermediateDirectories: true)
        chmod(hb.dir.file("data"), 0o700)
        try FileManager.default.copyItem(atPath: PackageRoot.path + "/testdata/hoststore/hostbook-v1.db", toPath: hb.db)
        chmod(hb.db, 0o600)
        let r = try hb.run("doctor")
        XCTAssertTrue(r.stdout.hasPrefix("Database: \(hb.db), schema version 1 (the next hostbook command migrates it to \(Schema.currentVersion), after a backup), integrity ok, private file modes.\n"), r.stdout)
        XCTAssertEqual(try hb.sql("PRAGMA user_version"), "1")
        XCTAssertEqual(hb.files(), ["hostbook.db"])
    }

    func testOrphanAndMissingSecretsAreFound() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "needs a Secret Service: run inside scripts/with-keyring")
        try hb.ok("add", "keep", "--hostname", "k.example", "--password-stdin", stdin: "pw-keep")
        try hb.ok("add", "gone", "--hostname", "g.example", "--password-stdin", stdin: "pw-gone")
        try hb.ok("add", "lost", "--hostname", "l.example", "--password-stdin", stdin: "pw-lost")
        XCTAssertEqual(try doctor().status, 0)
        let dbid = try hb.sql("SELECT value FROM meta WHERE key = 'database_id'")
        let goneUUID = try hb.sql("SELECT uuid FROM hosts WHERE name = 'gone'")
        let lostUUID = try hb.sql("SELECT uuid FROM hosts WHERE name = 'lost'")
        // An orphan: the row goes, the vault item stays. A missing secret: the other way round.
        try hb.shell("sqlite3 \"$DBFILE\" \"DELETE FROM hosts WHERE name = 'gone'\"", environment: ["DBFILE": hb.db])
        try hb.shell("secret-tool clear db \"$DBID\" kind password owner \"$OWNER\"", environment: ["DBID": dbid, "OWNER": lostUUID])
        // A key row whose private key never reached the vault.
        try hb.shell("sqlite3 \"$DBFILE\" \"INSERT INTO keys(uuid, name, algorithm, bits, fingerprint, public_key, format, created_at) VALUES ('k-1', 'laptop', 'ssh-ed25519', 256, 'SHA256:x', x'00', 'openssh', 'now')\"",
                      environment: ["DBFILE": hb.db])
        let r = try hb.run("doctor")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("""
            warning: the vault holds a password whose host no longer exists (owner \(goneUUID))
              fix: Delete it with: secret-tool clear db \(dbid) kind password owner \(goneUUID)
            error: host 'lost' uses a password, but the vault has none for it
              fix: Store it again with 'hostbook edit lost --password-stdin', or stop using one with 'hostbook edit lost --no-password'.
            error: key 'laptop' has no private key in the vault
              fix: Restore it from its private key file (the one whose fingerprint is SHA256:x): 'hostbook keys import PATH --name laptop' puts it back in the vault and leaves the key and its hosts as they are.
            3 problems found.

            """), r.stdout)
        // Following the advice makes it healthy.
        try hb.shell("secret-tool clear db \"$DBID\" kind password owner \"$OWNER\"", environment: ["DBID": dbid, "OWNER": goneUUID])
        try hb.ok("edit", "lost", "--no-password")
        try hb.shell("sqlite3 \"$DBFILE\" \"DELETE FROM keys\"", environment: ["DBFILE": hb.db])
        XCTAssertEqual(try doctor().checks, [])
    }

    /// A key whose vault item is lost (a replaced keyring, an item deleted by hand) while a
    /// host uses it: doctor says so, and the command its fix names, run as worded with the
    /// key's file for PATH, puts the item back; the key keeps its name, created_at and
    /// hosts, the restored private key is the key (exported and read by ssh-keygen), and
    /// doctor is clean. (Before: the import said "this key is already stored", and `keys
    /// remove` refused while a host used the key.)
    func testALostPrivateKeyIsRestoredByTheCommandDoctorGives() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "needs a Secret Service: run inside scripts/with-keyring")
        let file = PackageRoot.path + "/testkeys/openssh/ed25519_none"
        try hb.ok("keys", "import", file, "--name", "legacy")
        try hb.ok("add", "web", "--hostname", "web.example", "--key", "legacy")
        let before = try XCTUnwrap(try hb.json("keys", "show", "legacy") as? [String: Any])
        let fingerprint = try XCTUnwrap(before["fingerprint"] as? String)
        let dbid = try hb.sql("SELECT value FROM meta WHERE key = 'database_id'")
        let uuid = try hb.sql("SELECT uuid FROM keys WHERE name = 'legacy'")
        try hb.shell("secret-tool clear db \"$DBID\" kind private-key owner \"$OWNER\"", environment: ["DBID": dbid, "OWNER": uuid])
        let export = try hb.run(["keys", "export", "legacy", "--no-passphrase", "--output", hb.dir.file("gone")])
        XCTAssertEqual(export.status, 1, "the item is really gone: \(export.stderr)")

        let r = try hb.run("doctor")
        XCTAssertEqual(r.status, 1, r.stdout)
        let fixLine = "  fix: Restore it from its private key file (the one whose fingerprint is \(fingerprint)): 'hostbook keys import PATH --name legacy' puts it back in the vault and leaves the key and its hosts as they are.\n"
        XCTAssertTrue(r.stdout.contains("error: key 'legacy' has no private key in the vault\n" + fixLine), r.stdout)

        // The command between the quotes, PATH being the key's file.
        let command = try XCTUnwrap(fixLine.split(separator: "'").dropFirst().first)
        var words = command.split(separator: " ").map(String.init)
        XCTAssertEqual(words.removeFirst(), "hostbook")
        words = words.map { $0 == "PATH" ? file : $0 }
        let restore = try hb.run(words)
        XCTAssertEqual(restore.status, 0, restore.stderr)
        XCTAssertEqual(restore.stdout, "Restored the private key of key 'legacy' in the vault: 256 \(fingerprint) hostbook test ed25519 (ED25519)\n")
        XCTAssertEqual(restore.stderr, "The key was stored already but its vault item was missing; its name and the hosts that use it are unchanged.\n")

        XCTAssertEqual(try doctor().checks, [])
        let after = try XCTUnwrap(try hb.json("keys", "show", "legacy") as? [String: Any])
        XCTAssertEqual(NSDictionary(dictionary: after), NSDictionary(dictionary: before))
        XCTAssertEqual(try hb.sql("SELECT uuid FROM keys WHERE name = 'legacy'"), uuid)
        XCTAssertEqual((try hb.json("show", "web") as? [String: Any])?["key"] as? String, "legacy")
        // The item is the key: exported, ssh-keygen reads the same public key from it.
        let out = hb.dir.file("restored")
        try hb.ok("keys", "export", "legacy", "--no-passphrase", "--output", out)
        let derived = try hb.tool("/usr/bin/ssh-keygen", ["-l", "-f", out])
        XCTAssertEqual(derived.status, 0, derived.stderr)
        XCTAssertTrue(derived.stdout.contains(fingerprint), derived.stdout)
        // With its item back, the key is stored again: a second import is refused as before.
        let again = try hb.run(["keys", "import", file, "--name", "legacy"])
        XCTAssertEqual(again.status, 5, again.stderr)
        XCTAssertTrue(again.stderr.hasPrefix("hostbook: this key is already stored as 'legacy' (\(fingerprint))\n"), again.stderr)
    }
}
