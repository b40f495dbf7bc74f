// scripts/install and scripts/uninstall into a temporary prefix: the files land where each
// tool looks, the man page renders, the completion loads, and uninstalling leaves the
// prefix exactly as it was (files and folders of others untouched).
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class InstallScriptTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func script(_ name: String, _ args: [String]) throws -> HostbookResult {
        try ToolProcess.run(Self.root.appendingPathComponent("scripts/\(name)"), args)
    }

    /// Every path under `dir` with its kind and mode, to compare before and after.
    func tree(_ dir: String) throws -> [String] {
        let fm = FileManager.default
        var out: [String] = []
        for case let rel as String in fm.enumerator(atPath: dir)! {
            let attrs = try fm.attributesOfItem(atPath: dir + "/" + rel)
            out.append("\(rel) \(attrs[.type] as? FileAttributeType == .typeDirectory ? "dir" : "file") \(String(attrs[.posixPermissions] as? Int ?? 0, radix: 8))")
        }
        return out.sorted()
    }

    func testInstallThenUninstallLeavesThePrefixAsItWas() throws {
        let dir = try TemporaryDirectory()
        let prefix = dir.file("prefix")
        // Someone else's files already there: a bin folder and a man page.
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix + "/share/man/man1", withIntermediateDirectories: true)
        try "#!/bin/sh\n".write(toFile: prefix + "/bin/other", atomically: true, encoding: .utf8)
        try ".TH OTHER 1\n".write(toFile: prefix + "/share/man/man1/other.1", atomically: true, encoding: .utf8)
        let before = try tree(prefix)

        let installed = try script("install", ["--prefix", prefix, "--binary", HostbookProcess.binaryURL.path])
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let files = ["bin/hostbook": "755", "share/man/man1/hostbook.1": "644",
                     "share/bash-completion/completions/hostbook": "644", "share/zsh/site-functions/_hostbook": "644",
                     "share/fish/vendor_completions.d/hostbook.fish": "644"]
        let after = try tree(prefix)
        for (f, mode) in files { XCTAssertTrue(after.contains("\(f) file \(mode)"), "\(f) in \(after)") }
        XCTAssertTrue(after.contains("share/hostbook/install-manifest file 644"))
        let unit = Self.root.appendingPathComponent("contrib/systemd/hostbook-agent.service").path
        XCTAssertEqual(after.contains { $0.hasPrefix("share/systemd/user/hostbook-agent.service ") }, FileManager.default.fileExists(atPath: unit))

        // The installed program runs, and what it installed is what it generates.
        let bin = prefix + "/bin/hostbook"
        XCTAssertEqual(try ToolProcess.run(URL(fileURLWithPath: bin), ["--version"]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: prefix + "/share/man/man1/hostbook.1", encoding: .utf8),
                       try ToolProcess.run(URL(fileURLWithPath: bin), ["man"]).stdout)
        let man = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/man"), ["-l", prefix + "/share/man/man1/hostbook.1"],
                                      environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertTrue(man.stdout.contains("HOSTBOOK(1)"))
        XCTAssertTrue(man.stdout.contains("hostbook known"), man.stdout.prefix(400).description)
        let bash = try ToolProcess.run(URL(fileURLWithPath: "/bin/bash"), ["--norc", "-c",
            "source '\(prefix)/share/bash-completion/completions/hostbook' && complete -p hostbook"])
        XCTAssertEqual(bash.stdout, "complete -F _hostbook hostbook\n", bash.stderr)

        // Installing again (an upgrade) keeps the record of the folders the first one made.
        XCTAssertEqual(try script("install", ["--prefix", prefix, "--binary", HostbookProcess.binaryURL.path]).status, 0)

        let removed = try script("uninstall", ["--prefix", prefix])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        let unitInstalled = FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("contrib/systemd/hostbook-agent.service").path)
        XCTAssertTrue(removed.stdout.contains("Removed \(files.count + (unitInstalled ? 1 : 0)) file(s)"), removed.stdout)
        XCTAssertEqual(try tree(prefix), before)
        // Nothing left to remove: still fine.
        XCTAssertEqual(try script("uninstall", ["--prefix", prefix]).status, 0)
        XCTAssertEqual(try tree(prefix), before)
    }

    /// The slot for the agent's systemd user unit: installed (with its binary path filled in)
    /// only when the project has one, and removed with the rest.
    func testTheSystemdUserUnitIsInstalledWhenTheProjectHasOne() throws {
        let dir = try TemporaryDirectory()
        let root = dir.file("project")
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/scripts", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/contrib/systemd", withIntermediateDirectories: true)
        for name in ["install", "uninstall"] {
            try fm.copyItem(atPath: Self.root.appendingPathComponent("scripts/\(name)").path, toPath: root + "/scripts/\(name)")
        }
        try "[Service]\nExecStart=@bindir@/hostbook agent run\n".write(toFile: root + "/contrib/systemd/hostbook-agent.service", atomically: true, encoding: .utf8)
        let prefix = dir.file("prefix")
        let r = try ToolProcess.run(URL(fileURLWithPath: root + "/scripts/install"), ["--prefix", prefix, "--binary", HostbookProcess.binaryURL.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try String(contentsOfFile: prefix + "/share/systemd/user/hostbook-agent.service", encoding: .utf8),
                       "[Service]\nExecStart=\(prefix)/bin/hostbook agent run\n")
        XCTAssertEqual(try ToolProcess.run(URL(fileURLWithPath: root + "/scripts/uninstall"), ["--prefix", prefix]).status, 0)
        XCTAssertFalse(fm.fileExists(atPath: prefix), "the prefix did not exist before, and does not now")
    }

    /// Uninstalling the program under an installed ssh configuration that runs it (its
    /// KnownHostsCommand) uninstalls that configuration first; when that fails, nothing is
    /// removed and the command to run is said. As the test account: its own home.
    func testUninstallRemovesTheInstalledSSHConfigurationFirstOrRefuses() throws {
        let fx = try HostbookFixture()
        let prefix = fx.dir.file("prefix")
        let install = Self.root.appendingPathComponent("scripts/install").path
        let uninstall = Self.root.appendingPathComponent("scripts/uninstall").path
        let installed = try fx.tool(install, ["--prefix", prefix, "--binary", HostbookProcess.binaryURL.path])
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let bin = prefix + "/bin/hostbook"
        XCTAssertEqual(try fx.tool(bin, ["add", "web", "--hostname", "web.example"]).status, 0)
        XCTAssertEqual(try fx.tool(bin, ["ssh-config", "--install"]).status, 0)
        let home = fx.environment["HOME"] ?? fx.dir.path
        let userConfig = home + "/.ssh/config"
        let generated = home + "/.config/hostbook/ssh_config"
        XCTAssertTrue(try String(contentsOfFile: generated, encoding: .utf8).contains("KnownHostsCommand \(bin) "))

        // ~/.ssh cannot be written: the configuration cannot be uninstalled, so nothing is.
        chmod(home + "/.ssh", 0o500)
        let refused = try fx.tool(uninstall, ["--prefix", prefix])
        XCTAssertEqual(refused.status, 1, refused.stdout)
        XCTAssertTrue(refused.stderr.hasSuffix(
            "scripts/uninstall: \(generated) runs \(bin) as its KnownHostsCommand, and uninstalling it failed\n"
            + "Run '\(bin) ssh-config --uninstall', then run scripts/uninstall again; nothing was removed.\n"), refused.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: bin))
        XCTAssertTrue(FileManager.default.fileExists(atPath: generated))

        chmod(home + "/.ssh", 0o700)
        let removed = try fx.tool(uninstall, ["--prefix", prefix])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        // hostbook's own report of what it removed, then the script's line.
        XCTAssertTrue(removed.stdout.hasPrefix("Removed the Include line from \(userConfig)"), removed.stdout)
        XCTAssertTrue(removed.stdout.contains("\nuninstalled the ssh configuration (\(bin) ssh-config --uninstall)\n"), removed.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: generated))
        XCTAssertFalse(FileManager.default.fileExists(atPath: userConfig), "hostbook made it, holding only the Include line")
        XCTAssertFalse(FileManager.default.fileExists(atPath: bin))
    }

    /// An ssh configuration installed before any host was saved names no hostbook program;
    /// uninstalling hostbook removes it and its Include line all the same (issue 34).
    func testUninstallRemovesAnInstalledSSHConfigurationWithoutHosts() throws {
        let fx = try HostbookFixture()
        let prefix = fx.dir.file("prefix")
        let installed = try fx.tool(Self.root.appendingPathComponent("scripts/install").path,
                                    ["--prefix", prefix, "--binary", HostbookProcess.binaryURL.path])
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let bin = prefix + "/bin/hostbook"
        let configured = try fx.tool(bin, ["ssh-config", "--install"])
        XCTAssertEqual(configured.status, 0, configured.stderr)
        let home = fx.environment["HOME"] ?? fx.dir.path
        let userConfig = home + "/.ssh/config"
        let generated = home + "/.config/hostbook/ssh_config"
        XCTAssertFalse(try String(contentsOfFile: generated, encoding: .utf8).contains("KnownHostsCommand"))
        XCTAssertTrue(try String(contentsOfFile: userConfig, encoding: .utf8).contains("Include"))

        let removed = try fx.tool(Self.root.appendingPathComponent("scripts/uninstall").path, ["--prefix", prefix])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertTrue(removed.stdout.contains("\nuninstalled the ssh configuration (\(bin) ssh-config --uninstall)\n"), removed.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: generated))
        XCTAssertFalse(FileManager.default.fileExists(atPath: userConfig), "hostbook made it, holding only the Include line")
        XCTAssertFalse(FileManager.default.fileExists(atPath: bin))
    }

    /// The default prefix puts the manifest in hostbook's data folder: made 0700 there, so the
    /// first database is private and the first doctor finds nothing to fix about modes.
    func testTheDataFolderIsPrivateWhenTheManifestGoesThere() throws {
        let dir = try TemporaryDirectory()
        let home = dir.file("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let env = ["HOME": home]
        let unset = ["XDG_DATA_HOME", "HOSTBOOK_DB", "XDG_CONFIG_HOME"]
        let prefix = home + "/.local"
        let installed = try ToolProcess.run(Self.root.appendingPathComponent("scripts/install"),
                                            ["--prefix", prefix, "--binary", HostbookProcess.binaryURL.path],
                                            environment: env, removing: unset)
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let data = home + "/.local/share/hostbook"
        XCTAssertEqual(try tree(home + "/.local/share").filter { $0.hasPrefix("hostbook") },
                       ["hostbook dir 700", "hostbook/install-manifest file 644"])
        let bin = URL(fileURLWithPath: prefix + "/bin/hostbook")
        let added = try ToolProcess.run(bin, ["add", "web", "--hostname", "web.example.com"], environment: env, removing: unset)
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: data + "/hostbook.db"))
        let doctor = try ToolProcess.run(bin, ["doctor", "--json"], environment: env, removing: unset)
        let report = try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any] ?? [:]
        let findings = (report["findings"] as? [[String: Any]] ?? []).filter { $0["check"] as? String == "database.permissions" }
        XCTAssertEqual(findings.count, 0, "\(findings)")

        // A folder an older install left 0755 is made private by the next install.
        XCTAssertEqual(chmod(data, 0o755), 0)
        XCTAssertEqual(try ToolProcess.run(Self.root.appendingPathComponent("scripts/install"),
                                           ["--prefix", prefix, "--binary", HostbookProcess.binaryURL.path],
                                           environment: env, removing: unset).status, 0)
        XCTAssertTrue(try tree(home + "/.local/share").contains("hostbook dir 700"))
        // Uninstalling leaves the data folder and the database.
        XCTAssertEqual(try ToolProcess.run(Self.root.appendingPathComponent("scripts/uninstall"), ["--prefix", prefix],
                                           environment: env, removing: unset).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: data + "/hostbook.db"))
    }
}

