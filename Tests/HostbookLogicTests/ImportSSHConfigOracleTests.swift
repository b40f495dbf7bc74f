// The importer (in-process: InProcessCommand runs Hostbook.main) checked against the real
// `ssh -G -F FILE ALIAS` for a
// generated set of configurations: Include with relative paths and globs, Include inside a
// block, Host lists, wildcards, negation, Host *, Match host/user/all, key=value, quotes,
// keyword case, comments and %h. For every concrete alias: hostname, port, user, the jump
// host (or a reported ProxyJump) and the IdentityFiles (each reported: no key is imported).
// Moved from HostbookTests/ImportSSHConfigOracleTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class ImportSSHConfigOracleTests: XCTestCase {
    static let defaults = ["~/.ssh/id_rsa", "~/.ssh/id_ecdsa", "~/.ssh/id_ecdsa_sk", "~/.ssh/id_ed25519",
                           "~/.ssh/id_ed25519_sk", "~/.ssh/id_xmss", "~/.ssh/id_dsa"]

    func testImportAgreesWithSshGOnGeneratedConfigs() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh"), "needs /usr/bin/ssh")
        var r = SeededGenerator(seed: 12)
        var compared = 0, loops = 0
        for round in 0..<8 {
            let cli = try InProcessCommand()
            let tmp = cli.folder
            let home = tmp.file("home"), ssh = home + "/.ssh"
            try FileManager.default.createDirectory(atPath: ssh + "/conf.d", withIntermediateDirectories: true)
            let aliases = ["a1", "a2", "B3", "web.example.com", "db.example.com", "j1", "j2"]
            func kw(_ k: String) -> String { r.pick([k, k.lowercased(), k.uppercased()]) }
            func sep() -> String { r.pick([" ", "=", " = ", "\t"]) }
            func settings() -> String {
                var out = ""
                for _ in 0..<(1 + r.int(3)) {
                    switch r.int(7) {
                    case 0: out += "  " + kw("HostName") + sep() + r.pick(["%h.example.net", "10.9.8.\(1 + r.int(200))", "\"Up.Example.Org\""]) + "\n"
                    case 1: out += "  " + kw("Port") + sep() + r.pick(["2200", "22", "65000"]) + "\n"
                    case 2: out += "  " + kw("User") + sep() + r.pick(["alice", "'bob'", "deploy"]) + "\n"
                    case 3: out += "  " + kw("ProxyJump") + sep() + r.pick(["j1", "j2", "alice@j1", "j1,j2", "none", "nowhere"]) + "\n"
                    case 4: out += "  " + kw("IdentityFile") + sep() + r.pick(["~/.ssh/id_test", "\"~/.ssh/with space\"", "%d/.ssh/id_%h"]) + "\n"
                    case 5: out += "  # comment\n"
                    default: out += "  " + kw("Compression") + sep() + "yes\n"
                    }
                }
                return out
            }
            func header() -> String {
                switch r.int(8) {
                case 0: return kw("Host") + " *\n"
                case 1: return kw("Match") + " " + r.pick(["host *.example.net", "user alice", "all", "originalhost a*"]) + "\n"
                case 2: return kw("Host") + " *.example.com !db.example.com\n"
                default: return kw("Host") + sep() + (0..<(1 + r.int(2))).map { _ in r.pick(aliases) }.joined(separator: " ") + "\n"
                }
            }
            try (header() + settings()).write(toFile: ssh + "/conf.d/1.conf", atomically: true, encoding: .utf8)
            try (header() + settings()).write(toFile: ssh + "/conf.d/2.conf", atomically: true, encoding: .utf8)
            try ("Host j1 j2\n" + settings()).write(toFile: ssh + "/inner.conf", atomically: true, encoding: .utf8)
            var main = r.int(2) == 0 ? "" : settings().replacingOccurrences(of: "  ", with: "")
            main += "Include conf.d/*.conf\n"
            for _ in 0..<(3 + r.int(4)) { main += header() + settings() }
            main += "Host a1\n  Include inner.conf\nHost *\n" + settings()
            let file = ssh + "/config"
            try main.write(toFile: file, atomically: true, encoding: .utf8)

            let run = try cli.call(["--db", tmp.file("db"), "import-ssh-config", file, "--json"], environment: ["HOME": home])
            XCTAssertEqual(run.status, 0, run.stderr)
            let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdoutBytes) as? [String: Any])
            for h in report["hosts"] as? [[String: Any]] ?? [] {
                let alias = h["alias"] as? String ?? ""
                let context = "round \(round) \(alias)\n\(main)"
                let (status, g) = try sshG(file, alias, home: home)
                let notImported = h["not_imported"] as? [String] ?? []
                // ssh refuses a host whose ProxyJump leads back to itself; the import skips it.
                if h["action"] as? String == "skipped" {
                    XCTAssertTrue((h["reason"] as? String ?? "").contains("jumphost loop via"), "\(h["reason"] ?? "") " + context)
                    XCTAssertNotEqual(status, 0, context)
                    loops += 1
                    continue
                }
                XCTAssertEqual(status, 0, context)
                XCTAssertEqual([h["hostname"] as? String ?? ""], g["hostname"], context)
                XCTAssertEqual(["\(h["port"] as? Int ?? 0)"], g["port"], context)
                if let user = h["user"] as? String { XCTAssertEqual([user], g["user"], context) }
                if let jump = h["jump"] as? String {
                    let spec = g["proxyjump"]?.first ?? ""
                    let hop = spec.split(separator: "@").last.map(String.init) ?? spec
                    XCTAssertEqual(hop, jump, context)
                } else if let spec = g["proxyjump"]?.first {
                    XCTAssertTrue(notImported.contains { $0.hasPrefix("ProxyJump \(spec):") }, "\(notImported) " + context)
                }
                let files = g["identityfile"] ?? []
                let reported = notImported.filter { $0.hasPrefix("IdentityFile ") }
                XCTAssertEqual(reported.count, files == Self.defaults ? 0 : files.count, "\(reported) " + context)
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 30)
        XCTAssertGreaterThan(loops, 0, "the generated set has no ProxyJump loop; change the seed")
    }

    func sshG(_ file: String, _ alias: String, home: String) throws -> (Int32, [String: [String]]) {
        let r = try Tool.run("/usr/bin/ssh", ["-G", "-F", file, "--", alias], environment: ProcessInfo.processInfo.environment.merging(["HOME": home]) { $1 })
        var out: [String: [String]] = [:]
        for line in r.stdout.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            out[String(line[..<space]), default: []].append(String(line[line.index(after: space)...]))
        }
        return (r.status, out)
    }
}
