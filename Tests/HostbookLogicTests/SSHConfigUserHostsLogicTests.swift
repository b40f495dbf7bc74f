// End to end in-process (InProcessCommand): the installed ssh configuration never takes
// over a name the user's own ~/.ssh/config defines (its Include is the first line, and
// ssh's first value wins), on --install, on the print, on the rewrite after an import, and
// doctor lists each clash. The oracle is the real `ssh -G -F` reading the user's file.
// Moved from HostbookTests (the commands' logic, not the binary, is the subject).
import Foundation
@testable import hostbook
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class SSHConfigUserHostsLogicTests: XCTestCase {
    var fx: InProcessCommand!
    var home: String { fx.environment["HOME"] ?? "" }

    override func setUpWithError() throws {
        fx = try InProcessCommand()
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() { fx = nil }

    func testUserHostBlocksAreNeverShadowedByTheInstalledFile() throws {
        let ssh = home + "/.ssh"
        let userConfig = ssh + "/config"
        // The Include is absolute: ssh takes a relative one from the passwd entry's home.
        try FileManager.default.createDirectory(atPath: ssh + "/conf.d", withIntermediateDirectories: true)
        try Data("""
            # mine
            Include \(ssh)/conf.d/*
            Host gitlab
                HostName gitlab.internal.example
                User git
            Host git* Docs
                ServerAliveInterval 30

            """.utf8).write(to: URL(fileURLWithPath: userConfig))
        try Data("Host build01 wiki\n    HostName wiki.internal.example\n".utf8).write(to: URL(fileURLWithPath: ssh + "/conf.d/work"))
        chmod(userConfig, 0o600)

        try fx.ok("add", "gitlab", "--hostname", "100.64.0.5")
        try fx.ok("add", "wiki", "--hostname", "100.64.0.6")
        try fx.ok("add", "ci", "--hostname", "100.64.0.7", "--jump", "gitlab")
        // Patterns are no definition; and ssh matches Host names as typed, so `Docs` is not `docs`.
        try fx.ok("add", "gitea", "--hostname", "100.64.0.8")
        try fx.ok("add", "docs", "--hostname", "100.64.0.9")

        let skippedGitlab = "hostbook: warning: skipped host 'gitlab': '\(userConfig)' line 3 has your own Host block for it, which hostbook leaves in charge\n"
        let skippedWiki = "hostbook: warning: skipped host 'wiki': '\(ssh)/conf.d/work' line 1 has your own Host block for it, which hostbook leaves in charge\n"
        let skippedCI = "hostbook: warning: skipped host 'ci': its jump host 'gitlab' is left out for your own Host block\n"

        let printed = try fx.run(["ssh-config"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertEqual(printed.stderr, skippedGitlab + skippedWiki + skippedCI)
        XCTAssertFalse(printed.stdout.contains("Host gitlab\n"), printed.stdout)
        XCTAssertTrue(printed.stdout.contains("Host gitea\n"), printed.stdout)

        let install = try fx.run(["ssh-config", "--install"])
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertTrue(install.stderr.hasPrefix(skippedGitlab + skippedWiki + skippedCI), install.stderr)
        // From now on the user's block is on line 4: the Include line is line 1.
        let skippedGitlabAfter = skippedGitlab.replacingOccurrences(of: "line 3", with: "line 4")
        let generated = home + "/.config/hostbook/ssh_config"
        var text = try String(contentsOfFile: generated, encoding: .utf8)
        for gone in ["gitlab", "wiki", "ci"] { XCTAssertFalse(text.contains("Host \(gone)\n"), text) }
        for kept in ["gitea", "docs"] { XCTAssertTrue(text.contains("Host \(kept)\n"), text) }

        // ssh itself: the user's blocks win, the others resolve to hostbook's.
        func resolve(_ name: String) throws -> String {
            let r = try fx.tool("/usr/bin/ssh", ["-F", userConfig, "-G", name])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout
        }
        let gitlab = try resolve("gitlab")
        XCTAssertTrue(gitlab.contains("\nhostname gitlab.internal.example\n"), gitlab)
        XCTAssertTrue(gitlab.contains("\nuser git\n"), gitlab)
        XCTAssertFalse(gitlab.contains("\nknownhostscommand "), gitlab)
        XCTAssertTrue(try resolve("wiki").contains("\nhostname wiki.internal.example\n"))
        XCTAssertTrue(try resolve("gitea").contains("\nhostname 100.64.0.8\n"))
        XCTAssertTrue(try resolve("docs").contains("\nhostname 100.64.0.9\n"))

        // Installing again reads hostbook's own file as hostbook's, not as the user's.
        let again = try fx.run(["ssh-config", "--install"])
        XCTAssertTrue(again.stderr.hasPrefix(skippedGitlabAfter + skippedWiki + skippedCI), again.stderr)
        XCTAssertEqual(try String(contentsOfFile: generated, encoding: .utf8), text)

        // A tailnet device named like one of the user's hosts: the rewrite after the import
        // leaves it out and says so; its neighbour is written.
        let status = PackageRoot.path + "/testdata/tailscale/status-rotation-before.json"
        let imported = try fx.run(["import-tailscale", status, "--all"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stderr.contains("hostbook: warning: skipped host 'build01': '\(ssh)/conf.d/work' line 1 has your own Host block for it, which hostbook leaves in charge\n"), imported.stderr)
        text = try String(contentsOfFile: generated, encoding: .utf8)
        XCTAssertFalse(text.contains("Host build01\n"), text)
        XCTAssertTrue(text.contains("Host cache01\n"), text)
        XCTAssertTrue(try resolve("build01").contains("\nhostname wiki.internal.example\n"))

        // doctor: one finding per clash, with the fix; the resolve check uses a written host.
        let doctor = try fx.run(["doctor", "--json"])
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: doctor.stdoutBytes) as? [String: Any], doctor.stderr)
        let findings = try XCTUnwrap(report["findings"] as? [[String: Any]])
        let clashes = findings.filter { $0["check"] as? String == "ssh-config.clash" }
        XCTAssertEqual(clashes.map { $0["message"] as? String ?? "" }, ["build01", "gitlab", "wiki"].map { name in
            "saved host '\(name)' is left out of \(generated): '\(name == "gitlab" ? userConfig : ssh + "/conf.d/work")' line \(name == "gitlab" ? 4 : 1) has your own Host block for it"
        })
        XCTAssertEqual(clashes.dropFirst().first?["fix"] as? String,
                       "Rename the saved host ('hostbook edit gitlab --rename NEW'), or remove 'gitlab' from your Host line at '\(userConfig)' line 4.")
        XCTAssertFalse(findings.contains { $0["check"] as? String == "ssh-config.resolve" || $0["check"] as? String == "ssh-config.stale" }, "\(findings)")

        // The fix doctor gives: renamed, the saved host is written under its new name.
        try fx.ok("edit", "gitlab", "--rename", "gitlab-tail")
        text = try String(contentsOfFile: generated, encoding: .utf8)
        XCTAssertTrue(text.contains("Host gitlab-tail\n"), text)
        XCTAssertTrue(try resolve("gitlab-tail").contains("\nhostname 100.64.0.5\n"))
        XCTAssertTrue(try resolve("gitlab").contains("\nhostname gitlab.internal.example\n"))
    }

    /// A configuration ssh refuses is not guessed at: nothing is installed.
    func testAConfigurationSSHRefusesRefusesTheInstall() throws {
        let userConfig = home + "/.ssh/config"
        let included = home + "/.ssh/work.conf"
        try Data("Include work.conf\n".utf8).write(to: URL(fileURLWithPath: userConfig))
        try Data("Host web\n    Port notaport\n".utf8).write(to: URL(fileURLWithPath: included))
        XCTAssertNotEqual(try fx.tool("/usr/bin/ssh", ["-F", userConfig, "-G", "web"]).status, 0, "ssh refuses it")
        try fx.ok("add", "web", "--hostname", "web.example")
        try fx.fails(["ssh-config", "--install"], status: 1, stderr: """
            hostbook: cannot read your ssh configuration to find the hosts it defines: '\(included)' line 2: Bad port 'notaport'.
            hostbook never writes a Host block that would override one of yours, so it needs to read them; fix the file (ssh refuses it too).

            """)
        XCTAssertEqual(try String(contentsOfFile: userConfig, encoding: .utf8), "Include work.conf\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/.config/hostbook"))
    }
}
