// A saved hostname reaches ssh exactly as saved (issue 18), in-process (InProcessCommand
// runs Hostbook.main): the oracle is the real `ssh -G -F FILE ALIAS` on what `hostbook ssh
// --print-config` writes, and add and import-ssh-config hold a hostname to the one rule
// (HostValidation.hostname) on the literal value; the installed configuration read by
// `ssh -G` gives it too. Moved from HostbookTests/SSHHostNamePercentTests, which keeps real
// connections and a program path with `%`.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class SSHHostNamePercentLogicTests: XCTestCase {
    /// name → saved hostname: a zone index, and a zone that reads as ssh's %h token.
    let hosts = [("zone", "fe80::1%eth0"), ("token", "fe80::1%h"), ("plain", "192.0.2.7")]

    func saved() throws -> InProcessCommand {
        let hb = try InProcessCommand()
        for (name, hostname) in hosts { try hb.ok("add", name, "--hostname", hostname) }
        return hb
    }

    /// What ssh makes of `config` for `alias`: its `hostname` line (`ssh -G`).
    func sshHostName(_ hb: InProcessCommand, config: String, alias: String, file: StaticString = #filePath, line: UInt = #line) throws -> String? {
        let path = hb.dir.file("oracle-\(alias).conf")
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try hb.tool("/usr/bin/ssh", ["-G", "-F", path, "--", alias])
        XCTAssertEqual(r.status, 0, "ssh -G \(alias): \(r.stderr)", file: file, line: line)
        return r.stdout.split(separator: "\n").first { $0.hasPrefix("hostname ") }.map { String($0.dropFirst(9)) }
    }

    func testPrintConfigGivesSSHTheSavedHostname() throws {
        let hb = try saved()
        for (name, hostname) in hosts {
            let config = try hb.ok("ssh", "--print-config", name).stdout
            XCTAssertEqual(try sshHostName(hb, config: config, alias: name), hostname, config)
        }
    }

    func testInstalledConfigGivesSSHTheSavedHostname() throws {
        let hb = try saved()
        let home = hb.environment["HOME"] ?? ""
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let config = try hb.ok("ssh-config").stdout
        for (name, hostname) in hosts {
            XCTAssertEqual(try sshHostName(hb, config: config, alias: name), hostname, config)
        }
        XCTAssertEqual(try hb.run(["ssh-config", "--install"]).status, 0)
        let installed = try String(contentsOfFile: home + "/.config/hostbook/ssh_config", encoding: .utf8)
        XCTAssertEqual(try sshHostName(hb, config: installed, alias: "zone"), "fe80::1%eth0")
    }

    /// add and import-ssh-config agree: a `%` is allowed only as an IPv6 zone, checked on the
    /// literal hostname (import reads ssh_config's `%%` as ssh does, then checks).
    func testAddAndImportHoldTheSameRule() throws {
        let hb = try InProcessCommand()
        let config = hb.dir.file("import.conf")
        try """
            Host zoned
              HostName fe80::1%%eth0
            Host dotted
              HostName 127.0.0.1%%h

            """.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        let r = try hb.run(["import-ssh-config", config, "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any])
        let rows = try XCTUnwrap(report["hosts"] as? [[String: Any]])
        let zoned = try XCTUnwrap(rows.first { $0["alias"] as? String == "zoned" })
        XCTAssertEqual(zoned["hostname"] as? String, "fe80::1%eth0")
        XCTAssertNotEqual(zoned["action"] as? String, "skipped", "\(zoned)")
        let dotted = try XCTUnwrap(rows.first { $0["alias"] as? String == "dotted" })
        XCTAssertEqual(dotted["action"] as? String, "skipped", "\(dotted)")
        XCTAssertEqual(try hb.run(["add", "dotted", "--hostname", "127.0.0.1%h"]).status, 5)
        // What import saved is what add would save, and ssh gets it back.
        let show = try XCTUnwrap(try JSONSerialization.jsonObject(with: hb.ok("show", "zoned", "--json").stdoutBytes) as? [String: Any])
        XCTAssertEqual(show["hostname"] as? String, "fe80::1%eth0")
        let printed = try hb.ok("ssh", "--print-config", "zoned").stdout
        XCTAssertEqual(try sshHostName(hb, config: printed, alias: "zoned"), "fe80::1%eth0")
    }
}
