// `hostbook keys import` of PEM, PKCS#8 and PuTTY .ppk files (testkeys/pem,
// testkeys/ppk, made by testkeys/make-pem-ppk-cert-keys.sh), in-process (InProcessCommand runs Hostbook.main), a fresh
// database and the real Secret Service (run inside scripts/with-keyring). The expected
// fingerprints are ssh-keygen's, stored beside the fixtures.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class KeysImportPEMPPKTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let testkeys = root.appendingPathComponent("testkeys")

    var fx: InProcessCommand!
    override func setUpWithError() throws { fx = try InProcessCommand() }
    override func tearDown() { fx = nil }

    func path(_ relative: String) -> String { Self.testkeys.appendingPathComponent(relative).path }
    /// Field 2 of the `ssh-keygen -l` line stored in a `.fp` file.
    func fingerprint(_ relative: String) throws -> String {
        String(try String(contentsOfFile: path(relative), encoding: .utf8).split(separator: " ")[1])
    }

    func requireVault() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no D-Bus session: run the tests inside scripts/with-keyring")
        }
    }

    func testImportPEMAndPPKShowsFormatAndFingerprint() throws {
        try requireVault()
        // PEM files carry no comment: `comment` is null (docs/json.md).
        let cases: [(file: String, fp: String, format: String, comment: String?)] = [
            ("pem/rsa.aes256", "pem/rsa.fp", "pem-pkcs1", nil),
            ("pem/ecdsa384.aes192", "pem/ecdsa384.fp", "pem-sec1", nil),
            ("pem/ed25519.pkcs8-aes256", "pem/ed25519.fp", "pkcs8", nil),
            ("pem/ecdsa521.pkcs8-des3", "pem/ecdsa521.fp", "pkcs8", nil),
            ("ppk/ecdsa256.v3-argon2id.ppk", "ppk/ecdsa256.fp", "ppk-v3", "ecdsa256 ppk fixture"),
            ("ppk/rsa.v2-aes.ppk", "ppk/rsa.fp", "ppk-v2", "rsa ppk fixture"),
        ]
        for (i, c) in cases.enumerated() {
            let pass = c.file.hasPrefix("pem/") ? path("pem/PASSPHRASE.txt") : path("ppk/PASSPHRASE.txt")
            let name = "k\(i)"
            try fx.ok("keys", "import", path(c.file), "--name", name, "--passphrase-file", pass)
            let show = try fx.ok("keys", "show", name, "--json")
            let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: show.stdoutBytes) as? [String: Any])
            XCTAssertEqual(o["fingerprint"] as? String, try fingerprint(c.fp), c.file)
            XCTAssertEqual(o["format"] as? String, c.format, c.file)
            if let comment = c.comment {
                XCTAssertEqual(o["comment"] as? String, comment, c.file)
            } else {
                XCTAssertTrue(o["comment"] is NSNull, "\(c.file): comment \(String(describing: o["comment"]))")
            }
        }
    }

    func testWrongPassphraseIsExit6() throws {
        for file in ["pem/rsa.des3", "pem/ecdsa256.pkcs8-aes256-sha256", "ppk/ed25519.v3-argon2id.ppk", "ppk/ecdsa521.v2-aes.ppk"] {
            try fx.fails(["keys", "import", path(file), "--passphrase-stdin"], stdin: "not the passphrase\n", status: 6,
                         stderr: "hostbook: incorrect passphrase for '\(path(file))'\nCheck the passphrase and try again; nothing was stored.\n")
        }
    }

    func testUnsupportedAndDamagedAreExit1BeforeAnyPassphrase() throws {
        let cases: [(String, String)] = [
            ("ppk/ed25519.v3-argon2d.ppk", "Argon2d is not supported (libsodium has no Argon2d); re-save the key with puttygen using Argon2id"),
            ("ppk/ed25519.v3-parallel2.ppk", "Argon2 parallelism 2 is not supported (libsodium computes only parallelism 1); re-save the key with puttygen --ppk-param parallelism=1"),
            ("pem/secp256k1", "the EC curve 'secp256k1' is not supported; OpenSSH supports only P-256, P-384 and P-521"),
            ("pem/dsa", "DSA keys are not supported (OpenSSH 10.0 removed them); use an Ed25519, ECDSA or RSA key"),
            ("pem/ecdsa256.pkcs8-pbes1-md5-des", "the PKCS#8 encryption (PBE-MD5-DES) uses DES-CBC, which OpenSSL does not provide; re-encrypt the key with PBES2 and AES-256-CBC"),
        ]
        for (file, reason) in cases {
            // No passphrase flag and no terminal: a passphrase prompt would be exit 3.
            try fx.fails(["keys", "import", path(file)], status: 1, stderr: "hostbook: cannot import '\(path(file))': \(reason)\n")
        }
        let damaged = fx.dir.file("damaged.ppk")
        var text = try String(contentsOfFile: path("ppk/rsa.v3.ppk"), encoding: .utf8)
        text = text.replacingOccurrences(of: "Comment: rsa", with: "Comment: RSA")
        try Data(text.utf8).write(to: URL(fileURLWithPath: damaged))
        try fx.fails(["keys", "import", damaged], status: 1, stderr: "hostbook: cannot import '\(damaged)': the file is damaged: MAC mismatch\n")
    }

    func testEncryptedWithoutTerminalNeedsAFlag() throws {
        let file = path("pem/rsa.aes128")
        try fx.fails(["keys", "import", file], status: 3,
                     stderr: "hostbook: the passphrase of '\(file)' is needed but there is no terminal\nUse --passphrase-stdin or --passphrase-file instead.\n")
    }

    /// An encrypted PEM file shows no public key before its passphrase: a key stored under
    /// the name given, whose vault item is lost, lets the import go on to the passphrase;
    /// the same key then restores the item (issue 23), another key is refused as a taken
    /// name and stores nothing.
    func testAnEncryptedPEMRestoresTheLostItemOfItsKey() throws {
        try requireVault()
        let pass = path("pem/PASSPHRASE.txt")
        try fx.ok("keys", "import", path("pem/rsa.aes256"), "--name", "deploy", "--passphrase-file", pass)
        let dbid = try fx.sql("SELECT value FROM meta WHERE key = 'database_id'")
        let uuid = try fx.sql("SELECT uuid FROM keys WHERE name = 'deploy'")
        try fx.shell("secret-tool clear db \"$DBID\" kind private-key owner \"$OWNER\"", environment: ["DBID": dbid, "OWNER": uuid])

        let other = try fx.run(["keys", "import", path("pem/ecdsa384.aes192"), "--name", "deploy", "--passphrase-file", pass])
        XCTAssertEqual(other.status, 5, other.stderr)
        XCTAssertTrue(other.stderr.hasPrefix("hostbook: a key named 'deploy' already exists\n"), other.stderr)
        XCTAssertEqual(try fx.sql("SELECT count(*) FROM keys"), "1")

        let restored = try fx.run(["keys", "import", path("pem/rsa.aes256"), "--name", "deploy", "--passphrase-file", pass])
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertTrue(restored.stdout.hasPrefix("Restored the private key of key 'deploy' in the vault: 2048 \(try fingerprint("pem/rsa.fp"))"), restored.stdout)
        XCTAssertEqual(try fx.sql("SELECT uuid || ' ' || format FROM keys"), "\(uuid) pem-pkcs1")
        let export = try fx.run(["keys", "export", "deploy", "--no-passphrase", "--output", fx.dir.file("deploy")])
        XCTAssertEqual(export.status, 0, export.stderr)
    }

    /// PEM and PKCS#8 have no room for a comment; ssh-keygen keeps it in PATH.pub, and
    /// `keys import` takes it from there when that file holds the same key (issue 23). A
    /// .pub of another key, one that is not a regular file, or a key from standard input
    /// gives no comment.
    func testAKeyWithoutACommentTakesTheOneOfThePubFileBesideIt() throws {
        try requireVault()
        func keygen(_ args: [String]) throws {
            let r = try fx.tool("/usr/bin/ssh-keygen", ["-q", "-N", ""] + args)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        func comment(_ name: String) throws -> Any? {
            let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: fx.ok("keys", "show", name, "--json").stdoutBytes) as? [String: Any])
            return o["comment"]
        }
        for (i, (type, format)) in [("rsa", "PEM"), ("ecdsa", "PEM"), ("ecdsa", "PKCS8"), ("rsa", "PKCS8")].enumerated() {
            let file = fx.dir.file("key\(i)")
            try keygen(["-t", type, "-m", format, "-C", "dana@laptop \(i)", "-f", file])
            try fx.ok("keys", "import", file, "--name", "k\(i)")
            XCTAssertEqual(try comment("k\(i)") as? String, "dana@laptop \(i)", "\(type) \(format)")
        }
        // PATH.pub of another key: not this key's comment.
        let a = fx.dir.file("a"), b = fx.dir.file("b")
        try keygen(["-t", "ecdsa", "-m", "PEM", "-C", "a's", "-f", a])
        try keygen(["-t", "ecdsa", "-m", "PEM", "-C", "b's", "-f", b])
        try FileManager.default.removeItem(atPath: a + ".pub")
        try FileManager.default.copyItem(atPath: b + ".pub", toPath: a + ".pub")
        try fx.ok("keys", "import", a, "--name", "a")
        XCTAssertTrue(try comment("a") is NSNull)
        // A FIFO is never opened for reading (nothing would ever write to it).
        try FileManager.default.removeItem(atPath: b + ".pub")
        XCTAssertEqual(mkfifo(b + ".pub", 0o644), 0)
        try fx.ok("keys", "import", b, "--name", "b")
        XCTAssertTrue(try comment("b") is NSNull)
        // From standard input there is no PATH.pub.
        let c = fx.dir.file("c")
        try keygen(["-t", "ecdsa", "-m", "PEM", "-C", "c's", "-f", c])
        let piped = try fx.call(["keys", "import", "-", "--name", "c"], bytes: try Data(contentsOf: URL(fileURLWithPath: c)))
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertTrue(try comment("c") is NSNull)
    }
}
