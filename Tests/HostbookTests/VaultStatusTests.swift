// `hostbook vault status`, end to end: with no D-Bus session at all, a bus that does not
// answer, a locked KeePassXC and no default keyring. Inside the test run's own keyring, and
// the help: HostbookLogicTests/VaultStatusLogicTests.
import Foundation
import XCTest

final class VaultStatusTests: XCTestCase {
    /// No bus address, no X11 display to autolaunch one, no $XDG_RUNTIME_DIR/bus.
    let noSession = ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "XDG_RUNTIME_DIR"]
    let noSessionMessage = "hostbook: no D-Bus session bus, so the keyring cannot be reached (Cannot autolaunch D-Bus without X11 $DISPLAY)\n"
        + "Run hostbook inside a desktop session, or start hostbook's own keyring with "
        + "'eval \"$(hostbook vault unlock)\"' (see docs/vault.md, \"hostbook over SSH\").\n"

    func testWithoutASessionBusItSaysWhatToDo() throws {
        let r = try HostbookProcess.run(["vault", "status"], removing: noSession)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, noSessionMessage)
    }

    func testWithoutASessionBusJSONHasTheStatus() throws {
        let r = try HostbookProcess.run(["vault", "status", "--json"], removing: noSession)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, """
        {
          "status": "no-session-bus",
          "headless": false,
          "bus": null,
          "service": null,
          "collection": null,
          "message": "no D-Bus session bus, so the keyring cannot be reached (Cannot autolaunch D-Bus without X11 $DISPLAY)",
          "fix": "Run hostbook inside a desktop session, or start hostbook's own keyring with 'eval \\"$(hostbook vault unlock)\\"' (see docs/vault.md, \\"hostbook over SSH\\")."
        }

        """)
        XCTAssertEqual(r.stderr, noSessionMessage)
    }

    func testABusNothingAnswersAtIsNotASuccess() throws {
        let r = try HostbookProcess.run(["--json", "vault", "status"],
                                        environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/hostbook-bus"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("\"status\": \"no-session-bus\""), r.stdout)
        XCTAssertTrue(r.stderr.hasPrefix("hostbook: the D-Bus session bus does not answer, so the keyring cannot be reached ("), r.stderr)
    }

    /// A locked KeePassXC database (a KeePassXC of this test's own): KeePassXC's words and fix,
    /// and the collection named as when it is unlocked.
    func testALockedKeePassXCDatabaseSaysToUnlockItInKeePassXC() throws {
        // As the user hostbook runs as, with the copy of the script that user can reach.
        let script = TestAccount.needed ? TestTools.folder + "/with-keepassxc" : PackageRootPath.path + "/scripts/with-keepassxc"
        let r = try ToolProcess.runAsUser(script, ["--locked", HostbookProcess.binaryURL.path, "vault", "status", "--json"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, """
        {
          "status": "locked",
          "headless": false,
          "bus": null,
          "service": "keepassxc",
          "collection": "secrets",
          "message": "the database keepassxc offers as the default keyring is locked",
          "fix": "Unlock the database in KeePassXC and try again."
        }

        """)
        XCTAssertEqual(r.stderr, "hostbook: the database keepassxc offers as the default keyring is locked\n"
                       + "Unlock the database in KeePassXC and try again.\n")
    }

    /// GNOME Keyring with no keyring at all (a session of its own, an empty keyrings folder):
    /// `--json` says what to do in the same words as the text's hint line (issue 23).
    func testNoDefaultKeyringGivesTheSameFixInTextAndJSON() throws {
        let fx = try HostbookFixture()
        let data = fx.dir.file("empty-data")
        try FileManager.default.createDirectory(atPath: data + "/keyrings", withIntermediateDirectories: true)
        func status(_ json: Bool) throws -> HostbookResult {
            try fx.tool("/usr/bin/dbus-run-session", ["--", "/bin/sh", "-c",
                "gnome-keyring-daemon --start --components=secrets >/dev/null 2>&1 && exec \"$0\" vault status $1",
                HostbookProcess.binaryURL.path, json ? "--json" : ""], environment: ["XDG_DATA_HOME": data], timeout: 60)
        }
        let message = "gnome-keyring-daemon has no default keyring"
        let fix = "Create a keyring and make it the default (e.g. in Seahorse), or start gnome-keyring-daemon with --unlock."
        let text = try status(false)
        XCTAssertEqual(text.status, 1)
        XCTAssertEqual(text.stdout, "")
        XCTAssertTrue(text.stderr.hasSuffix("hostbook: \(message)\n\(fix)\n"), text.stderr)
        let json = try status(true)
        XCTAssertEqual(json.status, 1)
        XCTAssertEqual(json.stdout, """
        {
          "status": "no-default-collection",
          "headless": false,
          "bus": null,
          "service": "gnome-keyring-daemon",
          "collection": null,
          "message": "\(message)",
          "fix": "\(fix)"
        }

        """)
    }
}
