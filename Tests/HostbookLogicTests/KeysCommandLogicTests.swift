// `hostbook keys ...` in-process (InProcessCommand runs Hostbook.main): import of every
// type and cipher, show, export, refusals, on a fresh database in a temporary folder, the
// real Secret Service (run inside scripts/with-keyring) and ssh-keygen as the oracle for
// fingerprints and for what `keys export` writes; without a terminal: the passphrase and
// confirmation refusals, exit 6 for a wrong passphrase, the exported file's mode, the
// listing. Moved from HostbookTests/KeysCommandTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class KeysCommandLogicTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("testkeys/openssh")
    static let passFile = fixtures.appendingPathComponent("PASSPHRASE").path
    static let passphrase = "hostbook-test-passphrase"

    var cli: InProcessCommand!
    var tmp: TempFolder { cli.folder }
    var db: String { tmp.file("hostbook.db") }

    override func setUpWithError() throws { cli = try InProcessCommand() }
    override func tearDown() { cli = nil }

    func fixture(_ name: String) -> String { Self.fixtures.appendingPathComponent(name).path }
    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// hostbook with --db; stdin is a file, so there is never a terminal.
    @discardableResult
    func hb(_ args: [String], stdin: String? = nil) throws -> InProcessCommand.Outcome {
        try cli.call(args + ["--db", db], stdin: stdin ?? "")
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

    func json(_ r: InProcessCommand.Outcome) throws -> Any { try JSONSerialization.jsonObject(with: r.stdoutBytes) }

    func testImportEncryptedKeyWithPassphraseFile() throws {
        try requireVault()
        let r = try hb(["keys", "import", fixture("ed25519_aes256-ctr"), "--passphrase-file", Self.passFile])
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "Imported key 'ed25519_aes256-ctr': \(try listing("ed25519_aes256-ctr"))\n")

        let show = try hb(["keys", "show", "ed25519_aes256-ctr", "--json"])
        XCTAssertEqual(show.status, 0, show.stderr)
        let o = try XCTUnwrap(try json(show) as? [String: Any])
        let l = try listing("ed25519_aes256-ctr").split(separator: " ")
        XCTAssertEqual(o["name"] as? String, "ed25519_aes256-ctr")
        XCTAssertEqual(o["type"] as? String, "ssh-ed25519")
        XCTAssertEqual(o["bits"] as? Int, 256)
        XCTAssertEqual(o["fingerprint"] as? String, String(l[1]))
        XCTAssertEqual(o["fingerprint_md5"] as? String, String(try text(fixture("ed25519_aes256-ctr.l-md5")).split(separator: " ")[1]))
        XCTAssertEqual(o["comment"] as? String, "hostbook test ed25519")
        XCTAssertEqual(o["public_key"] as? String, try text(fixture("ed25519_aes256-ctr.pub")).trimmingCharacters(in: .newlines))
        XCTAssertEqual(o["format"] as? String, "openssh-key-v1")
        XCTAssertEqual(o["security_key"] as? Bool, false)

        let pub = try hb(["keys", "public", "ed25519_aes256-ctr"])
        XCTAssertEqual(pub.stdout, try text(fixture("ed25519_aes256-ctr.pub")))
    }

    func testImportKeyWithManyRoundsSaysItWillTakeAWhile() throws {
        try requireVault()
        // testkeys/make-openssh-keys.sh made it with ssh-keygen -a 1001 (seconds of bcrypt
        // not spent again here); copied to a name of the test's.
        let key = tmp.file("slow")
        try FileManager.default.copyItem(atPath: Self.root.appendingPathComponent("testkeys/rounds/ed25519_aes128-ctr-1001rounds").path, toPath: key)
        let r = try hb(["keys", "import", key, "--passphrase-stdin"], stdin: Self.passphrase + "\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "hostbook: '\(key)' uses 1001 bcrypt rounds; decrypting it will take a while (about 3 s; Ctrl-C stops it).\n")
        XCTAssertTrue(r.stdout.hasPrefix("Imported key 'slow': 256 SHA256:"), r.stdout)
    }

    func testImportEveryTypeAndCipherFamily() throws {
        try requireVault()
        let keys = ["ed25519_chacha20-poly1305", "ecdsa256_aes128-gcm", "ecdsa384_3des-cbc", "ecdsa521_aes192-cbc",
                    "rsa2048_aes256-gcm", "rsa3072_none"]
        for key in keys {
            let r = try hb(["keys", "import", fixture(key), "--passphrase-stdin"], stdin: Self.passphrase + "\n")
            XCTAssertEqual(r.status, 0, "\(key): \(r.stderr)")
            XCTAssertEqual(r.stdout, "Imported key '\(key)': \(try listing(key))\n", key)
        }
        let list = try hb(["keys", "list", "--json"])
        let items = try XCTUnwrap(try json(list) as? [[String: Any]])
        XCTAssertEqual(items.compactMap { $0["name"] as? String }, keys.sorted())
    }

    func testCipherNoneWithBcryptOpensWithAnyPassphrase() throws {
        try requireVault()
        let r = try hb(["keys", "import", fixture("ed25519_none-bcrypt"), "--passphrase-stdin"], stdin: "anything")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Imported key 'ed25519_none-bcrypt': \(try listing("ed25519_none-bcrypt"))\n")
    }

    func testShowRandomartIsSSHKeygens() throws {
        try requireVault()
        XCTAssertEqual(try hb(["keys", "import", fixture("rsa3072_none"), "--name", "r"]).status, 0)
        let r = try hb(["keys", "show", "r", "--randomart"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lv = try text(fixture("rsa3072_none.lv")).split(separator: "\n").dropFirst().joined(separator: "\n")
        XCTAssertTrue(r.stdout.hasSuffix(lv + "\n"), r.stdout)
    }

    func testShowPutsTheLongPublicKeyLineLast() throws {
        try requireVault()
        XCTAssertEqual(try hb(["keys", "import", fixture("rsa3072_none"), "--name", "r"]).status, 0)
        XCTAssertEqual(try hb(["keys", "edit", "r", "--namespace", "git"]).status, 0)
        let publicLine = try text(fixture("rsa3072_none.pub")).split(separator: " ").prefix(2).joined(separator: " ")
        let r = try hb(["keys", "show", "r"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("public key:") }.count, 1, r.stdout)
        XCTAssertTrue(lines.last?.hasPrefix("public key:   \(publicLine)") == true, r.stdout)
        XCTAssertEqual(lines.dropLast().last?.hasPrefix("namespaces:   git "), true, r.stdout)
        // With the art, the public key is the last field line, the art after it.
        let art = try hb(["keys", "show", "r", "--randomart"]).stdout.split(separator: "\n").map(String.init)
        let fields = art.prefix { !$0.hasPrefix("+---") }
        XCTAssertTrue(fields.last?.hasPrefix("public key:   \(publicLine)") == true, art.joined(separator: "\n"))
        // JSON is unchanged: the same members.
        let o = try XCTUnwrap(try json(try hb(["keys", "show", "r", "--json"])) as? [String: Any])
        XCTAssertEqual((o["public_key"] as? String)?.hasPrefix(publicLine), true)
    }

    func testDamagedFilesAreExit1WithAReason() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: fixture("ed25519_none")))
        let truncated = tmp.file("truncated")
        try original.prefix(200).write(to: URL(fileURLWithPath: truncated))
        let garbage = tmp.file("garbage.key")
        try Data("this is not a key\n".utf8).write(to: URL(fileURLWithPath: garbage))
        let empty = tmp.file("empty")
        try Data().write(to: URL(fileURLWithPath: empty))
        let cases: [(String, String)] = [
            (truncated, "hostbook: cannot import '\(truncated)': the line '-----END OPENSSH PRIVATE KEY-----' is missing (the file is truncated)\n"),
            (garbage, "hostbook: cannot import '\(garbage)': not a private key file hostbook knows (expected OpenSSH, PEM, PKCS#8 or PuTTY .ppk)\n"),
            (empty, "hostbook: cannot import '\(empty)': the file is empty\n"),
            (fixture("ed25519_none.pub"), "hostbook: '\(fixture("ed25519_none.pub"))' is a public key, not a private key\nImport the private key file (usually the same name without .pub).\n"),
            (tmp.file("missing"), "hostbook: cannot read '\(tmp.file("missing"))': No such file or directory\n"),
            // Refused before a passphrase is asked for (which would be exit 3 here).
            (fixture("dsa1024_aes256-ctr"), "hostbook: cannot import '\(fixture("dsa1024_aes256-ctr"))': DSA keys are not supported (OpenSSH 10.0 removed them); use an Ed25519, ECDSA or RSA key\n"),
        ]
        for (path, message) in cases {
            let r = try hb(["keys", "import", path])
            XCTAssertEqual(r.status, 1, path)
            XCTAssertEqual(r.stderr, message, path)
        }
    }

    func testDuplicateKeyAndDuplicateNameAreExit5() throws {
        try requireVault()
        XCTAssertEqual(try hb(["keys", "import", fixture("ed25519_none"), "--name", "first"]).status, 0)
        let fp = String(try listing("ed25519_none").split(separator: " ")[1])
        // The same key from another file, even encrypted: refused before the passphrase is asked.
        let again = try hb(["keys", "import", fixture("ed25519_aes256-ctr")])
        XCTAssertEqual(again.status, 5)
        XCTAssertEqual(again.stderr, "hostbook: this key is already stored as 'first' (\(fp))\nUse 'hostbook keys show first' to see it.\n")
        let sameName = try hb(["keys", "import", fixture("ecdsa256_none"), "--name", "FIRST"])
        XCTAssertEqual(sameName.status, 5)
        XCTAssertEqual(sameName.stderr, "hostbook: a key named 'FIRST' already exists\nChoose another name with --name, or remove the existing key first.\n")
    }

    func testUnknownKeyIsExit4() throws {
        for command in [["keys", "show", "nope"], ["keys", "public", "nope"], ["keys", "export", "nope", "--no-passphrase"],
                        ["keys", "remove", "nope", "--yes"], ["keys", "edit", "nope", "--confirm"]] {
            let r = try hb(command)
            XCTAssertEqual(r.status, 4, "\(command)")
            XCTAssertEqual(r.stderr, "hostbook: no key named 'nope'\nRun 'hostbook keys list' to see the keys.\n", "\(command)")
            // Nothing is written for a key that is not there, not even an empty database.
            XCTAssertFalse(FileManager.default.fileExists(atPath: db), "\(command)")
        }
    }

    func testExportEncryptedIsReadByOpenSSH() throws {
        try requireVault()
        XCTAssertEqual(try hb(["keys", "import", fixture("ecdsa384_aes256-gcm"), "--name", "k", "--passphrase-file", Self.passFile]).status, 0)
        let r = try hb(["keys", "export", "k", "--passphrase-stdin"], stdin: "new pass\n")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("-----BEGIN OPENSSH PRIVATE KEY-----\n"))
        let file = tmp.file("exported")
        try r.stdoutBytes.write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        let y = try keygen(["-y", "-P", "new pass", "-f", file])
        XCTAssertEqual(y.stdout, try text(fixture("ecdsa384_aes256-gcm.pub")))
        XCTAssertNotEqual(try keygen(["-y", "-P", "", "-f", file]).status, 0, "must be encrypted")
    }

    func testExportPassphraseRules() throws {
        try requireVault()
        XCTAssertEqual(try hb(["keys", "import", fixture("ed25519_none"), "--name", "k"]).status, 0)
        let empty = try hb(["keys", "export", "k", "--passphrase-stdin"], stdin: "\n")
        XCTAssertEqual(empty.status, 5)
        XCTAssertEqual(empty.stderr, "hostbook: the passphrase is empty; the key would be exported unencrypted\nUse --no-passphrase to export it without encryption.\n")
        let noTerminal = try hb(["keys", "export", "k"])
        XCTAssertEqual(noTerminal.status, 3)
        XCTAssertEqual(noTerminal.stderr, "hostbook: a passphrase for the exported key is needed but there is no terminal\nUse --passphrase-stdin, --passphrase-file or --no-passphrase instead.\n")
        let plain = try hb(["keys", "export", "k", "--no-passphrase"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let file = tmp.file("plain")
        try plain.stdoutBytes.write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        XCTAssertEqual(try keygen(["-y", "-P", "", "-f", file]).stdout, try text(fixture("ed25519_none.pub")))
    }

    func testRemoveRefusesAKeyAHostUses() throws {
        try requireVault()
        XCTAssertEqual(try hb(["keys", "import", fixture("ed25519_none"), "--name", "k"]).status, 0)
        let add = try hb(["add", "web", "--hostname", "web.example", "--key", "k"])
        XCTAssertEqual(add.status, 0, add.stderr)
        let r = try hb(["keys", "remove", "k", "--yes"])
        XCTAssertEqual(r.status, 5)
        XCTAssertEqual(r.stderr, "hostbook: key 'k' is used by host 'web'\nPoint that host at another key first ('hostbook edit web --no-key').\n")
        // Nothing was removed: the private key is still in the vault.
        XCTAssertEqual(try hb(["keys", "export", "k", "--no-passphrase"]).status, 0)
    }

    func testSecurityKeyImportIsMarked() throws {
        try requireVault()
        let set = Self.root.appendingPathComponent("testkeys/sshkey")
        let r = try hb(["keys", "import", set.appendingPathComponent("ed25519_sk1_pw").path, "--name", "sk",
                        "--passphrase-file", set.appendingPathComponent("PASSPHRASE").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "This key lives on a FIDO security key: signing needs the authenticator.\n")
        let o = try XCTUnwrap(try json(try hb(["keys", "show", "sk", "--json"])) as? [String: Any])
        XCTAssertEqual(o["type"] as? String, "sk-ssh-ed25519@openssh.com")
        XCTAssertEqual(o["security_key"] as? Bool, true)
        XCTAssertEqual(o["fingerprint"] as? String,
                       try String(contentsOf: set.appendingPathComponent("ed25519_sk1.fp"), encoding: .utf8).trimmingCharacters(in: .newlines))
        // Where it lives and what it asks: the flags of the file (user presence, no PIN).
        XCTAssertEqual(o["location"] as? String, "security-key")
        XCTAssertEqual(o["needs_presence"] as? Bool, true)
        XCTAssertEqual(o["needs_pin"] as? Bool, false)
        XCTAssertTrue(try hb(["keys", "show", "sk"]).stdout.contains("\nlocation:     security-key (touch)\n"))
        // The list gains a LOCATION column once a key lives elsewhere than the vault.
        let list = try hb(["keys", "list"]).stdout
        XCTAssertTrue(list.hasPrefix("NAME") && list.contains("LOCATION") && list.contains("security-key (touch)"), list)
    }

    /// A list of vault keys reads as it did before keys had a location: no LOCATION column.
    func testAListOfVaultKeysHasNoLocationColumn() throws {
        try requireVault()
        XCTAssertEqual(try hb(["keys", "generate", "plain"]).status, 0)
        let list = try hb(["keys", "list"]).stdout
        XCTAssertTrue(list.hasPrefix("NAME") && list.contains("plain"), list)
        XCTAssertFalse(list.contains("LOCATION"), list)
        XCTAssertTrue(try hb(["keys", "show", "plain"]).stdout.contains("\nlocation:     vault\n"))
    }

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
        let empty = try cli.call(["keys", "list", "--db", tmp.file("empty.db")])
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

    func keygen(_ args: [String]) throws -> (status: Int32, stdout: String) {
        let r = try Tool.run("/usr/bin/ssh-keygen", args)
        return (r.status, r.stdout)
    }
}
