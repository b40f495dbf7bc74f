// `import-ssh-config` after `ssh-config --install`, in-process (InProcessCommand runs
// Hostbook.main; moved from HostbookTests/ImportSSHConfigInstalledTests): ~/.ssh/config now
// starts with an Include of hostbook's own generated file, which the import must not read
// (its hosts are hostbook's already; its KnownHostsCommand and IdentityAgent lines are
// hostbook's own), nor anything else under hostbook's configuration folder. It says so once
// in the report. (Before: every saved host came back as "already exists" with a list of
// hostbook's own options as not imported.)
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class ImportSSHConfigInstalledTests: XCTestCase {
    func testTheInstalledConfigurationIsLeftOutAndNamedOnce() throws {
        let fx = try InProcessCommand()
        let home = fx.dir.file("home")
        fx.environment["HOME"] = home
        fx.environment["XDG_CONFIG_HOME"] = home + "/.config"
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true)
        let userConfig = home + "/.ssh/config"
        let folder = home + "/.config/hostbook"
        try "Host mine\n  HostName mine.example\n  User me\nInclude \(folder)/extra.conf\n".write(toFile: userConfig, atomically: true, encoding: .utf8)
        chmod(userConfig, 0o600)
        try fx.ok("add", "web", "--hostname", "web.example", "--user", "deploy")
        try fx.ok("add", "db", "--hostname", "10.0.0.7", "--jump", "web")
        let install = try fx.run(["ssh-config", "--install"])
        XCTAssertEqual(install.status, 0, install.stderr)
        let generated = folder + "/ssh_config"
        XCTAssertTrue(try String(contentsOfFile: userConfig, encoding: .utf8).hasPrefix("Include \(generated)\n"))
        // Another file in hostbook's folder, included by the user's own configuration.
        try "Host extra\n  HostName extra.example\n".write(toFile: folder + "/extra.conf", atomically: true, encoding: .utf8)

        let note = "\(generated), \(folder)/extra.conf: hostbook's own generated configuration ('hostbook ssh-config --install'); not read, its hosts are hostbook's already"
        let r = try fx.run(["import-ssh-config", "--dry-run", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any])
        let hosts = report["hosts"] as? [[String: Any]] ?? []
        XCTAssertEqual(hosts.map { $0["name"] as? String ?? "" }, ["mine"])
        XCTAssertEqual(hosts.first?["not_imported"] as? [String], [])
        XCTAssertEqual(report["notes"] as? [String], [note])

        let text = try fx.run(["import-ssh-config"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout.components(separatedBy: "hostbook's own generated configuration").count, 2, text.stdout)
        for word in ["KnownHostsCommand", "IdentityAgent", "web.example", "extra.example"] { XCTAssertFalse(text.stdout.contains(word), text.stdout) }
        XCTAssertTrue(text.stdout.hasSuffix("1 added, 0 updated, 0 unchanged, 0 skipped.\n"), text.stdout)
        XCTAssertEqual((try fx.json("show", "mine") as? [String: Any])?["user"] as? String, "me")
        XCTAssertNotEqual(try fx.run(["show", "extra"]).status, 0, "nothing from hostbook's folder was imported")

        // Named as the file to import, the installed file is left out the same way.
        let direct = try fx.run(["import-ssh-config", generated, "--json"])
        XCTAssertEqual(direct.status, 0, direct.stderr)
        let directReport = try XCTUnwrap(try JSONSerialization.jsonObject(with: direct.stdoutBytes) as? [String: Any])
        XCTAssertEqual((directReport["hosts"] as? [Any])?.count, 0)
        XCTAssertEqual((directReport["notes"] as? [String])?.first, "\(generated): hostbook's own generated configuration ('hostbook ssh-config --install'); not read, its hosts are hostbook's already")
    }
}
