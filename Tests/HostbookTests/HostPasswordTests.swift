// End to end with the real vault (run inside scripts/with-keyring, and again inside
// scripts/with-keepassxc): a host's password goes to the vault, never the database, and the
// two stores stay consistent when one fails. A password removed with its host:
// HostbookLogicTests/HostPasswordLogicTests.
import Foundation
import XCTest

final class HostPasswordTests: XCTestCase {
    var hb: HostbookFixture!

    // XCTest keeps every test case object until the run ends: drop the fixture now so its
    // temporary folder is removed now.
    override func tearDown() { hb = nil }

    override func setUpWithError() throws {
        try XCTSkipUnless(HostbookFixture.vaultAvailable, "needs a Secret Service: run inside scripts/with-keyring")
        hb = try HostbookFixture()
    }

    func uuid(_ host: String) throws -> String { try Shell.sql(hb.db, "SELECT uuid FROM hosts WHERE name = '\(host)'") }
    func databaseID() throws -> String { try Shell.sql(hb.db, "SELECT value FROM meta WHERE key = 'database_id'") }

    /// The number of vault items for (this database, kind password, owner uuid).
    func vaultItems(owner: String) throws -> Int {
        let r = try Shell.run("secret-tool search --all db \"$DBID\" kind password owner \"$OWNER\" 2>&1 | grep -c '^\\[' || true",
                              environment: ["DBID": try databaseID(), "OWNER": owner], account: hb.account)
        return Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The password the vault holds for the host, read back with secret-tool (the payload's
    /// version byte 0x01 dropped).
    func storedPassword(owner: String) throws -> String? {
        let r = try Shell.run("secret-tool lookup db \"$DBID\" kind password owner \"$OWNER\"",
                              environment: ["DBID": try databaseID(), "OWNER": owner], account: hb.account)
        guard r.status == 0, r.stdout.hasPrefix("\u{01}") else { return nil }
        return String(r.stdout.dropFirst())
    }

    func testPasswordGoesToTheVaultAndAuthIsPassword() throws {
        let r = try hb.ok("add", "db", "--hostname", "db.example", "--password-stdin", stdin: "correct horse\n")
        XCTAssertEqual(r.stdout, "Added host 'db' (db.example, auth password).\n")
        let owner = try uuid("db")
        XCTAssertEqual(try vaultItems(owner: owner), 1)
        XCTAssertEqual((try hb.json("show", "db") as? [String: Any])?["auth"] as? String, "password")
        XCTAssertEqual(try hb.run("doctor").status, 0)

        XCTAssertEqual(try storedPassword(owner: owner), "correct horse")

        // Replace (each hostbook run is a new process: KeePassXC would ask the user before
        // letting it change an item another process wrote, so a replace writes a new item and
        // deletes the old one), with the vault's deadline cut to 2.5 s: a dialog would hold a
        // call to that deadline and fail the edit (timed out), so success shows none was shown.
        for password in ["battery staple", "tr0ub4dor"] {
            let edit = try hb.run(["edit", "db", "--password-stdin"], bytes: Data(password.utf8),
                                  environment: ["HOSTBOOK_VAULT_TIMEOUT": "2.5"])
            XCTAssertEqual(edit.status, 0, "a replace must not wait for a dialog: \(edit.stderr)")
            XCTAssertEqual(try vaultItems(owner: owner), 1)
            XCTAssertEqual(try storedPassword(owner: owner), password)
        }
        XCTAssertEqual(try hb.run("doctor").status, 0)
        XCTAssertEqual(try hb.ok("edit", "db", "--no-password").stdout, "Updated host 'db' (db.example, auth agent).\n")
        XCTAssertEqual(try vaultItems(owner: owner), 0)
        XCTAssertEqual((try hb.json("show", "db") as? [String: Any])?["auth"] as? String, "agent")
    }

    func testAbsentVaultLeavesNoHostRow() throws {
        try hb.ok("add", "first", "--hostname", "first.example")
        let r = try hb.run(["add", "db", "--hostname", "db.example", "--password-stdin"], stdin: "s3cret", removing: ["DBUS_SESSION_BUS_ADDRESS"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("hostbook: cannot store the password in the vault: no D-Bus session bus, so the keyring cannot be reached ("), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 2, "one line and a hint: \(r.stderr)")
        XCTAssertEqual(r.stdout, "")
        let names = (try hb.json("list") as? [[String: Any]])?.compactMap { $0["name"] as? String }
        XCTAssertEqual(names, ["first"])
        // Nor does a failed edit change the row.
        let e = try hb.run(["edit", "first", "--password-stdin"], stdin: "s3cret", removing: ["DBUS_SESSION_BUS_ADDRESS"])
        XCTAssertEqual(e.status, 1)
        XCTAssertEqual((try hb.json("show", "first") as? [String: Any])?["auth"] as? String, "agent")
    }

    /// The other direction (docs/architecture.md, "Layers"): the row changes first, and a vault
    /// that cannot be reached afterwards leaves an orphan item that doctor lists, never a
    /// dangling row.
    func testAbsentVaultDuringRemovalIsReportedAndDoctorFindsTheLeftover() throws {
        try hb.ok("add", "a", "--hostname", "a.example", "--password-stdin", stdin: "pw-a")
        try hb.ok("add", "b", "--hostname", "b.example", "--password-stdin", stdin: "pw-b")
        let a = try uuid("a"), b = try uuid("b")
        var r = try hb.run(["remove", "a", "--yes"], removing: ["DBUS_SESSION_BUS_ADDRESS"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("hostbook: removed host 'a', but could not delete its password from the vault: no D-Bus session bus"), r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix("\nRun 'hostbook doctor' when the vault is available; it lists the leftover item.\n"), r.stderr)
        r = try hb.run(["edit", "b", "--no-password"], removing: ["DBUS_SESSION_BUS_ADDRESS"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("hostbook: updated host 'b', but could not delete its old password from the vault: no D-Bus session bus"), r.stderr)
        XCTAssertEqual((try hb.json("show", "b") as? [String: Any])?["auth"] as? String, "agent")
        let doctor = try hb.run("doctor")
        XCTAssertEqual(doctor.status, 1)
        XCTAssertTrue(doctor.stdout.contains("warning: the vault holds a password whose host no longer exists (owner \(a))"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("warning: the vault holds a password for host 'b', which does not use one"), doctor.stdout)
        XCTAssertEqual(try vaultItems(owner: a), 1)
        XCTAssertEqual(try vaultItems(owner: b), 1)
    }

    /// A locked keyring, in a private keyring session of its own (locking the shared one
    /// would disturb the other tests).
    func testLockedVaultLeavesNoHostRow() throws {
        let script = """
            gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \
              --method org.freedesktop.Secret.Service.Lock "['/org/freedesktop/secrets/aliases/default']" >/dev/null || exit 90
            printf 'pw' | "$HB" add db --hostname db.example --password-stdin 2>"$ERRFILE"
            echo "status=$?"
            "$HB" list --json
            """
        let errFile = hb.dir.file("locked.err")
        let r = try Shell.run("\"$WITH_KEYRING\" sh -c \"$SCRIPT\"", environment: [
            "WITH_KEYRING": PackageRootPath.path + "/scripts/with-keyring", "SCRIPT": script,
            "ERRFILE": errFile, "HOSTBOOK_DB": hb.db,
        ])
        XCTAssertEqual(r.stdout, "status=1\n[]\n", r.stderr)
        XCTAssertEqual(try String(contentsOfFile: errFile, encoding: .utf8),
                       "hostbook: cannot store the password in the vault: the default keyring of gnome-keyring-daemon is locked\n"
                       + "Unlock it (log in to the desktop, or unlock the keyring in Seahorse) and try again.\n")
    }
}
