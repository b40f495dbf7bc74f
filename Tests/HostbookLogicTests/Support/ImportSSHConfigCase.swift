// The set-up and helpers both in-process import-ssh-config classes use
// (ImportSSHConfigLogicTests, ImportSSHConfigOracleLogicTests): a temporary HOME with
// ~/.ssh/conf.d, `hostbook` called in-process on the test's database, the import report as
// JSON, and the real `ssh -G -F FILE ALIAS` as the oracle of what a host resolves to.
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import hostbook
import TestSupport
import XCTest

class ImportSSHConfigCase: XCTestCase {
    var cli: InProcessCommand!
    var tmp: TempFolder { cli.folder }
    var home: String { tmp.file("home") }
    var sshDir: String { home + "/.ssh" }
    var db: String { tmp.file("data/hostbook.db") }

    override func setUpWithError() throws {
        cli = try InProcessCommand()
        try FileManager.default.createDirectory(atPath: sshDir + "/conf.d", withIntermediateDirectories: true)
    }

    override func tearDown() { cli = nil }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let path = name.hasPrefix("/") ? name : sshDir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    func hostbook(_ args: [String]) throws -> InProcessCommand.Outcome {
        try cli.call(["--db", db] + args, environment: ["HOME": home, "NO_COLOR": "1"])
    }

    func importJSON(_ args: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = try hostbook(["import-ssh-config"] + args + ["--json"])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any], file: file, line: line)
    }

    func hosts(_ report: [String: Any]) -> [[String: Any]] { report["hosts"] as? [[String: Any]] ?? [] }

    func byName(_ report: [String: Any]) -> [String: [String: Any]] {
        Dictionary(uniqueKeysWithValues: hosts(report).map { ($0["name"] as? String ?? "", $0) })
    }

    static let localUser: String = {
        guard let pw = getpwuid(getuid()) else { return "root" }
        return String(decoding: Data(bytes: pw.pointee.pw_name, count: strlen(pw.pointee.pw_name)), as: UTF8.self)
    }()

    func sshG(_ file: String, _ alias: String) throws -> [String: [String]] {
        let r = try cli.tool("/usr/bin/ssh", ["-G", "-F", file, "--", alias], environment: ["HOME": home])
        XCTAssertEqual(r.status, 0, r.stderr)
        var out: [String: [String]] = [:]
        for line in r.stdout.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            out[String(line[..<space]), default: []].append(String(line[line.index(after: space)...]))
        }
        return out
    }

    /// A configuration with Include (relative, glob, from inside a Host block), Host lists,
    /// wildcards, negation, Host *, key=value, quotes and keywords in any case.
    func writeRichConfig() throws -> String {
        try write("conf.d/10-bastion.conf", "Host bastion\n  HostName 192.0.2.10\n  PORT=2200\n  user ops\n")
        try write("conf.d/20-db.conf", "host db1 db2\n  hostname %h.db.example.com\n")
        try write("team.conf", "  User team\n")
        return try write("config", """
            # the user's own config
            Include conf.d/*.conf
            Host web1 web2 !web3
              HostName "Web.Example.COM"
              ProxyJump bastion
            Host web3
              Include team.conf
            Host *.example.org !skip.example.org
              Port 2022
            Host app.example.org skip.example.org
              USER = 'app user'
              User=second
            Host *
              User fallback
              Port 22
              ServerAliveInterval 30

            """)
    }
}
