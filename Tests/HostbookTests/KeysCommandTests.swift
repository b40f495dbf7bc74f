// End-to-end tests of `hostbook keys ...` with the real binary where the command line is the
// subject (no terminal, confirmation, exit 6, the exported file's mode, the listing), with
// the real Secret Service (scripts/with-keyring). Import, show, export and refusals run
// in-process: HostbookLogicTests/KeysCommandLogicTests.
import Foundation
import XCTest

final class KeysCommandTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("testkeys/openssh")
    static let passFile = fixtures.appendingPathComponent("PASSPHRASE").path
    static let passphrase = "hostbook-test-passphrase"

    var tmp: TemporaryDirectory!
    var db: String { tmp.file("hostbook.db") }

    override func setUpWithError() throws { tmp = try TemporaryDirectory() }
    override func tearDown() { tmp = nil }

    func fixture(_ name: String) -> String { Self.fixtures.appendingPathComponent(name).path }
    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// hostbook with --db; stdin is a pipe, so there is never a terminal.
    @discardableResult
    func hb(_ args: [String], stdin: String? = nil) throws -> HostbookResult {
        try HostbookProcess.run(args + ["--db", db], stdin: stdin.map { Data($0.utf8) })
    }

    /// The vault needs a D-Bus session with an unlocked keyring (scripts/with-keyring).
    func requireVault() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no D-Bus session: run the tests inside scripts/with-keyring")
        }
    }

    /// `256 SHA256:… comment (ED25519)` from a stored `ssh-keygen -l` output.
    func listing(_ key: String) throws -> String {
        try text(fixture(key + ".l")).trimmingCharacters(in: .newlines)
    }

    func json(_ r: HostbookResult) throws -> Any { try JSONSerialization.jsonObject(with: r.stdoutBytes) }

    // MARK: Import

    /// Any round count is read, as OpenSSH does; many rounds are announced on stderr first.
    func testListTableAndImportJSON() throws {
        try requireVault()
        let json = try hb(["keys", "import", fixture("rsa3072_none"), "--name", "deploy", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let o = try XCTUnwrap(try self.json(json) as? [String: Any])
        XCTAssertEqual(o["name"] as? String, "deploy")
        XCTAssertEqual(o["type"] as? String, "ssh-rsa")
        XCTAssertEqual(o["bits"] as? Int, 3072)
        XCTAssertEqual(try hb(["keys", "import", fixture("ecdsa521_none"), "--name", "Alpha"]).status, 0)
        let fp = { (key: String) in String(try self.listing(key).split(separator: " ")[1]) }
        let list = try hb(["keys", "list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(list.stdout, """
            NAME    TYPE   BITS  FINGERPRINT                                         COMMENT
            Alpha   ECDSA  521   \(try fp("ecdsa521_none"))  hostbook test ecdsa521
            deploy  RSA    3072  \(try fp("rsa3072_none"))  hostbook test rsa3072

            """)
        let empty = try HostbookProcess.run(["keys", "list", "--db", tmp.file("empty.db")])
        XCTAssertEqual(empty.stdout, "")
        XCTAssertEqual(empty.stderr, "No keys yet. Add one with 'hostbook keys import PATH' or 'hostbook keys generate NAME'.\n")
    }

    func testImportWithoutTerminalNeedsPassphraseFlag() throws {
        let path = fixture("ed25519_aes256-ctr")
        let r = try hb(["keys", "import", path])
        XCTAssertEqual(r.status, 3)
        XCTAssertEqual(r.stderr, "hostbook: the passphrase of '\(path)' is needed but there is no terminal\nUse --passphrase-stdin or --passphrase-file instead.\n")
        XCTAssertEqual(r.stdout, "")
    }

    func testWrongPassphraseIsExit6AndStoresNothing() throws {
        let path = fixture("ecdsa256_aes256-ctr")
        let r = try hb(["keys", "import", path, "--passphrase-stdin"], stdin: "wrong\n")
        XCTAssertEqual(r.status, 6)
        XCTAssertEqual(r.stderr, "hostbook: incorrect passphrase for '\(path)'\nCheck the passphrase and try again; nothing was stored.\n")
        let list = try hb(["keys", "list", "--json"])
        XCTAssertEqual(list.stdout, "[]\n")
    }

    // MARK: Export

    func testExportToFileIs0600AndNeverOverwrites() throws {
        try requireVault()
        XCTAssertEqual(try hb(["keys", "import", fixture("ed25519_none"), "--name", "k"]).status, 0)
        let out = tmp.file("id_k")
        let r = try hb(["keys", "export", "k", "--passphrase-file", Self.passFile, "--output", out, "--rounds", "4"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "Wrote the private key of 'k' to '\(out)'.\n")
        let attrs = try FileManager.default.attributesOfItem(atPath: out)
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(try keygen(["-y", "-P", Self.passphrase, "-f", out]).stdout, try text(fixture("ed25519_none.pub")))
        let again = try hb(["keys", "export", "k", "--passphrase-file", Self.passFile, "--output", out])
        XCTAssertEqual(again.status, 5)
        XCTAssertEqual(again.stderr, "hostbook: '\(out)' already exists\nChoose another --output file or remove it first.\n")
    }

    // MARK: Remove

    func testRemoveNeedsYesWithoutTerminal() throws {
        try requireVault()
        XCTAssertEqual(try hb(["keys", "import", fixture("ed25519_none"), "--name", "k"]).status, 0)
        let ask = try hb(["keys", "remove", "k"])
        XCTAssertEqual(ask.status, 3)
        XCTAssertEqual(ask.stderr, "hostbook: confirmation to remove key 'k' is needed but there is no terminal\nUse --yes instead.\n")
        let fp = String(try listing("ed25519_none").split(separator: " ")[1])
        let r = try hb(["keys", "remove", "k", "--yes"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Removed key 'k' (\(fp)).\n")
        XCTAssertEqual(try hb(["keys", "list", "--json"]).stdout, "[]\n")
        // The vault item went too: importing again works and export finds the new item.
        XCTAssertEqual(try hb(["keys", "import", fixture("ed25519_none"), "--name", "k"]).status, 0)
        XCTAssertEqual(try hb(["keys", "export", "k", "--no-passphrase"]).status, 0)
    }

    // MARK: Security keys (testkeys/sshkey, made by testkeys/make-sshkey-set.sh)

    func keygen(_ args: [String]) throws -> (status: Int32, stdout: String) {
        let r = try ToolProcess.sshKeygen(args)
        return (r.status, r.stdout)
    }
}
