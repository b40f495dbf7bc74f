// How git reaches a bundle's repository (issue 33), in-process against a real database:
// which URLs are ssh destinations, and the GIT_SSH_COMMAND for a saved host or a host with
// trusted keys (none for any other), read back by the real `ssh -G` run through sh as git
// runs it (the oracle for what ssh makes of the options); git's stderr kept as lines.
import Foundation
import XCTest
import HostStore
import KeyFormats
import Sessions
import TestSupport

final class BundleGitSSHTests: XCTestCase {
    private var folder: String!
    private var database: HostDatabase!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-git-ssh-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        database = try HostDatabase.open(path: folder + "/hostbook.db")
    }

    override func tearDown() {
        database = nil
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    func testTheSSHDestinationOfAGitURL() {
        typealias T = BundleGitSSH.Target
        XCTAssertEqual(BundleGitSSH.target(of: "ssh://git@gitbox:2222/srv/team.git"), T(user: "git", host: "gitbox", port: 2222))
        XCTAssertEqual(BundleGitSSH.target(of: "ssh://[fe80::1]:22/team.git"), T(user: nil, host: "fe80::1", port: 22))
        XCTAssertEqual(BundleGitSSH.target(of: "git+ssh://gitbox/team.git"), T(user: nil, host: "gitbox", port: nil))
        XCTAssertEqual(BundleGitSSH.target(of: "git@git.example.com:ops/team.git"), T(user: "git", host: "git.example.com", port: nil))
        XCTAssertEqual(BundleGitSSH.target(of: "gitbox:team.git"), T(user: nil, host: "gitbox", port: nil))
        for notSSH in ["/srv/git/team.git", "./a:b", "https://git.example.com/team.git", "file:///srv/team.git", "team.git"] {
            XCTAssertNil(BundleGitSSH.target(of: notSSH), notSSH)
        }
    }

    /// The command as git runs it (`sh -c "$GIT_SSH_COMMAND -G HOST"`): what ssh resolves.
    func resolved(_ words: [String], _ host: String) throws -> [String: String] {
        let command = words.map(ShellWord.quoted).joined(separator: " ")
        let r = try Tool.run("/bin/sh", ["-c", command + " -F /dev/null -G " + ShellWord.quoted(host)])
        XCTAssertEqual(r.status, 0, r.stderr)
        var out: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, out[String(parts[0])] == nil { out[String(parts[0])] = String(parts[1]) }
        }
        return out
    }

    func testASavedHostOrATrustedKeyIsReachedThroughHostbook() throws {
        try database.addHost(NewHost(name: "gitbox", hostname: "10.0.0.5", port: 2222, user: "git"))
        func command(_ url: String) throws -> [String]? {
            try BundleGitSSH.command(url: url, database: database, hostbookPath: "/usr/bin/hostbook", databasePath: folder + "/hostbook.db",
                                     agentSocket: folder + "/agent.sock")
        }
        let saved = try XCTUnwrap(try command("gitbox:team.git"))
        let ssh = try resolved(saved, "gitbox")
        XCTAssertEqual(ssh["hostname"], "10.0.0.5")
        XCTAssertEqual(ssh["port"], "2222")
        XCTAssertEqual(ssh["user"], "git")
        XCTAssertEqual(ssh["batchmode"], "yes", "ssh asks for nothing")
        XCTAssertEqual(ssh["stricthostkeychecking"], "true")
        XCTAssertEqual(ssh["userknownhostsfile"], "none")
        XCTAssertEqual(ssh["identityagent"], folder + "/agent.sock")
        XCTAssertEqual(ssh["knownhostscommand"], "/usr/bin/hostbook --db \(folder!)/hostbook.db --no-input known-hosts lookup %I %H %h %p %t %K %n")
        XCTAssertEqual(try resolved(try XCTUnwrap(try command("ssh://other@10.0.0.5:2222/team.git")), "other@10.0.0.5")["user"], "other",
                       "the URL's user and port win; the hostname finds the saved host")

        XCTAssertNil(try command("ssh://git.example.com/team.git"), "a host hostbook does not know: the user's ssh")
        XCTAssertNil(try command(folder + "/team.git"))
        let key = try PublicKey(blob: Base64.decode(Array("AAAAC3NzaC1lZDI1NTE5AAAAIK9ks7jkua5YWIwByRnnnc6UPJQWI75O0e/UJdPYU1JI".utf8))!)
        try KnownHostsStore(database: database).approve(HostLookupName(host: "git.example.com"), key: key, source: "user")
        let known = try XCTUnwrap(try command("ssh://git.example.com/team.git"), "a trusted key: hostbook decides the host key")
        XCTAssertNil(known.firstIndex(of: "HostName 10.0.0.5"))
        XCTAssertEqual(try resolved(known, "git.example.com")["knownhostscommand"]?.hasPrefix("/usr/bin/hostbook"), true)
    }

    func testGitsStderrIsKeptAsLines() {
        let failure = BundleGitFailure(what: "clone", status: 128,
                                       stderr: Array("ssh: connect to host 127.0.0.1 port 1: Connection refused\r\nfatal: Could not read from remote repository.\n\n".utf8))
        XCTAssertEqual(failure.lines, ["ssh: connect to host 127.0.0.1 port 1: Connection refused", "fatal: Could not read from remote repository."])
    }
}
