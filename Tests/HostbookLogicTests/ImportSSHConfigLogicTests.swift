// `hostbook import-ssh-config` in-process (InProcessCommand runs Hostbook.main): re-import,
// dry run, what cannot be kept, ProxyCommand hosts, identity files linked to imported keys,
// with a temporary HOME (relative Include paths are taken from ~/.ssh). Key links need the
// vault (scripts/with-keyring). The `ssh -G` oracle, the refusals' exit codes and the
// escaping of the report: ImportSSHConfigOracleLogicTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class ImportSSHConfigLogicTests: ImportSSHConfigCase {
    func testReimportUpdatesInsteadOfDuplicating() throws {
        let file = try write("config", "Host a\n  HostName a.example.com\nHost b\n  HostName b.example.com\n  ProxyJump a\n")
        let first = try importJSON([file])
        XCTAssertEqual([first["added"] as? Int, first["updated"] as? Int, first["unchanged"] as? Int], [2, 0, 0])
        XCTAssertEqual(byName(first)["b"]?["jump"] as? String, "a")
        let second = try importJSON([file])
        XCTAssertEqual([second["added"] as? Int, second["updated"] as? Int, second["unchanged"] as? Int], [0, 0, 2])
        try write("config", "Host c\n  HostName c.example.com\nHost a\n  HostName a2.example.com\n  Port 2201\nHost b\n  HostName b.example.com\n  ProxyJump a\n")
        let third = try importJSON([file])
        XCTAssertEqual([third["added"] as? Int, third["updated"] as? Int, third["unchanged"] as? Int], [1, 2, 0])
        XCTAssertEqual(byName(third)["a"]?["source_line"] as? Int, 3)
        let show = try hostbook(["show", "a", "--json"])
        let a = try XCTUnwrap(try JSONSerialization.jsonObject(with: show.stdoutBytes) as? [String: Any])
        XCTAssertEqual(a["hostname"] as? String, "a2.example.com")
        XCTAssertEqual(a["port"] as? Int, 2201)
        let list = try hostbook(["list", "--json"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: list.stdoutBytes) as? [Any])?.count, 3)
    }

    func testDryRunWritesNothing() throws {
        let file = try write("config", "Host a\n  HostName a.example.com\n")
        // No database yet: none is created.
        let dry = try hostbook(["import-ssh-config", file, "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.hasSuffix("Dry run, nothing written: 1 added, 0 updated, 0 unchanged, 0 skipped.\n"), dry.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
        _ = try importJSON([file])
        try write("config", "Host a\n  HostName changed.example.com\nHost b\n  HostName b.example.com\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let files = try FileManager.default.contentsOfDirectory(atPath: tmp.file("data")).sorted()
        let report = try importJSON([file, "--dry-run"])
        XCTAssertEqual(report["dry_run"] as? Bool, true)
        XCTAssertEqual([report["added"] as? Int, report["updated"] as? Int], [1, 1])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: db)), before)
        // Opening the database to read may leave SQLite's empty -wal/-shm beside it; nothing else.
        for f in try FileManager.default.contentsOfDirectory(atPath: tmp.file("data")) where !files.contains(f) {
            XCTAssertTrue(f.hasSuffix("-shm") || f.hasSuffix("-wal"), f)
            if f.hasSuffix("-wal") { XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: tmp.file("data/" + f))[.size] as? Int, 0) }
        }
        XCTAssertEqual(try hostbook(["show", "a", "--json"]).stdout.contains("changed.example.com"), false)
    }

    func testWhatCannotBeKeptIsListed() throws {
        let text = """
            Host a
              ForwardAgent yes
              IdentityFile ~/.ssh/absent_key
            Host b
              ProxyJump nowhere
            Host c
              ProxyJump a,b
            Match exec "test -e /"
              User fromexec
            Host *.pattern
              Port 2
            Include nothing/*.conf
            Host *
              ServerAliveInterval 30

            """
        let file = try write("config", text)
        let report = try importJSON([file])
        let h = byName(report)
        let a = h["a"]?["not_imported"] as? [String] ?? []
        XCTAssertTrue(a.contains { $0.hasPrefix("forwardagent yes (\(file) line 2)") }, "\(a)")
        XCTAssertTrue(a.contains("IdentityFile ~/.ssh/absent_key: the file does not exist"), "\(a)")
        XCTAssertTrue(a.contains { $0.hasPrefix("Match exec (\(file) line 8)") }, "\(a)")
        // The user's own `Host *` still gives it ServerAliveInterval: not lost (issue 34).
        XCTAssertFalse(h.values.contains { ($0["not_imported"] as? [String] ?? []).contains { $0.contains("serveraliveinterval") } }, "\(h)")
        XCTAssertTrue((h["b"]?["not_imported"] as? [String] ?? []).contains { $0.contains("no saved or imported host is named 'nowhere'") })
        XCTAssertTrue((h["c"]?["not_imported"] as? [String] ?? []).contains { $0.contains("a chain of 2 jump hosts") })
        XCTAssertNil(h["c"]?["jump"] as? String)
        let notes = report["notes"] as? [String] ?? []
        XCTAssertTrue(notes.contains { $0.hasPrefix("Match exec \"test -e /\" (\(file) line 8)") }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.hasPrefix("Host *.pattern (\(file) line 10)") }, "\(notes)")
        XCTAssertTrue(notes.contains("Include ~/.ssh/nothing/*.conf (\(file) line 12) matched no files (ssh skips it too)"), "\(notes)")
        // The text report lists them too, and the file is never changed.
        let r = try hostbook(["import-ssh-config", file])
        XCTAssertTrue(r.stdout.contains("Not imported (hostbook cannot represent these):\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\n  a: forwardagent yes (\(file) line 2): hostbook does not keep this option\n"), r.stdout)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), text)
    }

    func testAHostBehindAProxyCommandIsSkippedWithTheReason() throws {
        let file = try write("config", """
            Host viaproxy
              HostName 10.9.9.9
              ProxyCommand ssh -W %h:%p gw
            Host direct
              HostName 10.9.9.10
              ProxyCommand none
            Host behind
              ProxyJump viaproxy

            """)
        let report = try importJSON([file])
        let h = byName(report)
        XCTAssertEqual(h["viaproxy"]?["action"] as? String, "skipped")
        XCTAssertEqual(h["viaproxy"]?["reason"] as? String,
                       "it is reached through 'ProxyCommand ssh -W %h:%p gw', which hostbook does not run (without it hostbook would connect directly); "
                       + "use ProxyJump in the file, or add it with 'hostbook add viaproxy --hostname H --jump JUMP'")
        XCTAssertEqual(h["direct"]?["action"] as? String, "added")
        XCTAssertEqual(h["behind"]?["action"] as? String, "added")
        XCTAssertNil(h["behind"]?["jump"] as? String)
        XCTAssertEqual(report["skipped"] as? Int, 1)
        XCTAssertEqual(try hostbook(["show", "viaproxy"]).status, 4)
        let r = try hostbook(["import-ssh-config", file, "--dry-run"])
        XCTAssertTrue(r.stdout.contains("viaproxy"), r.stdout)
        XCTAssertTrue(r.stdout.contains("which hostbook does not run"), r.stdout)
    }

    /// An IdentityFile is linked to the imported key with the same public half: from the .pub
    /// file, or from an unencrypted private key without one.
    func testIdentityFilesLinkToImportedKeys() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no D-Bus session: run the tests inside scripts/with-keyring")
        }
        for name in ["id_a", "id_b"] {
            let k = try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", sshDir + "/" + name])
            XCTAssertEqual(k.status, 0, k.stderr)
            let i = try hostbook(["keys", "import", sshDir + "/" + name, "--name", name])
            XCTAssertEqual(i.status, 0, i.stderr)
        }
        try FileManager.default.removeItem(atPath: sshDir + "/id_b.pub")
        let file = try write("config", "Host a\n  IdentityFile ~/.ssh/id_a\nHost b\n  IdentityFile %d/.ssh/id_b\nHost c\n  IdentityFile ~/.ssh/id_none\n")
        let h = byName(try importJSON([file]))
        XCTAssertEqual(h["a"]?["key"] as? String, "id_a")
        XCTAssertEqual(h["b"]?["key"] as? String, "id_b")
        XCTAssertNil(h["c"]?["key"] as? String)
        let show = try hostbook(["show", "a", "--json"])
        let a = try XCTUnwrap(try JSONSerialization.jsonObject(with: show.stdoutBytes) as? [String: Any])
        XCTAssertEqual(a["auth"] as? String, "key")
    }

    /// An encrypted private key without a .pub file cannot be linked without its passphrase:
    /// reported, never asked for.
    func testAnEncryptedKeyWithoutPubIsReported() throws {
        let k = try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "secret-pass", "-f", sshDir + "/id_enc"])
        XCTAssertEqual(k.status, 0, k.stderr)
        try FileManager.default.removeItem(atPath: sshDir + "/id_enc.pub")
        let file = try write("config", "Host a\n  IdentityFile ~/.ssh/id_enc\n")
        let h = byName(try importJSON([file]))
        XCTAssertEqual(h["a"]?["not_imported"] as? [String],
                       ["IdentityFile ~/.ssh/id_enc: the key is encrypted and has no .pub file beside it; import it with 'hostbook keys import \(sshDir)/id_enc' and import the config again"])
    }
}
