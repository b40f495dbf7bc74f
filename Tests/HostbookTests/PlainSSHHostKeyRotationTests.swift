// Host-key rotation through plain ssh with the installed configuration (issue 32): as the
// ordinary test account, `ssh dev true` with `ssh-config --install` and the standing agent,
// against a real sshd that rotates RSA → RSA + Ed25519 → Ed25519 on the same port, with the
// real OpenSSH client (its own known_hosts file, UpdateHostKeys yes) run beside it as the
// oracle. No hostbook process runs after ssh: ssh edits the host's kept known_hosts file and
// the next hostbook command takes the edits (KeptKnownHosts; the rules are in-process in
// SessionsTests' KeptKnownHostsTests and HostStoreTests' HostKeyRotationTests).
import Foundation
import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

final class PlainSSHHostKeyRotationTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
    }

    func testPlainSSHLearnsRotationAsOpenSSHDoes() throws {
        let bed = try SSHTestBed()
        let keyPath = bed.fx.dir.file("k-key")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "k", "-f", keyPath]).status, 0)
        try bed.fx.ok("keys", "import", keyPath, "--name", "k")
        let pub = try String(contentsOfFile: keyPath + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.removeItem(atPath: keyPath)
        let oracle = try TemporaryDirectory()
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "oracle", "-f", oracle.file("id")]).status, 0)
        let oraclePub = try String(contentsOfFile: oracle.file("id.pub"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let sshd = try PrivateSSHD(hostKeyTypes: ["rsa", "ed25519"], serving: ["rsa"], authorizedKeys: [pub, oraclePub])
        defer { sshd.stop() }
        let port = String(sshd.port)
        let rsa = try sshd.publicKeyTypeAndBlob("rsa"), ed = try sshd.publicKeyTypeAndBlob("ed25519")
        try bed.fx.ok("add", "dev", "--hostname", "127.0.0.1", "--port", port, "--user", "root", "--key", "k")
        try bed.fx.ok("add", "fresh", "--hostname", "localhost", "--port", port, "--user", "root", "--key", "k")
        try bed.fx.ok("known-hosts", "approve", "127.0.0.1", "--port", port, "--key", rsa, "--yes")
        let userConfig = bed.home + "/.ssh/config"
        try Data("# mine\n".utf8).write(to: URL(fileURLWithPath: userConfig))
        chmod(userConfig, 0o644)
        try bed.fx.ok("ssh-config", "--install")
        XCTAssertEqual(try bed.fx.run(["agent", "start"]).status, 0)
        defer { _ = try? bed.fx.run(["agent", "stop"]) }

        func plainSSH(_ alias: String) throws -> Shell.Result {
            var env = bed.fx.environment
            env["CFG"] = userConfig
            return try Shell.run("unset SSH_AUTH_SOCK; exec ssh -F \"$CFG\" -o BatchMode=yes \(alias) true", environment: env, account: bed.fx.account)
        }
        let knownHosts = oracle.file("known_hosts")
        try "[127.0.0.1]:\(port) \(rsa)\n".write(toFile: knownHosts, atomically: true, encoding: .utf8)
        func oracleLogin() throws -> Set<String> {
            let r = try Tool.run("/usr/bin/ssh", sshd.sshOptions(knownHosts: knownHosts) + [
                "-o", "UpdateHostKeys=yes", "-o", "StrictHostKeyChecking=yes", "-o", "HashKnownHosts=no", "-o", "CheckHostIP=no",
                "-o", "IdentitiesOnly=yes", "-i", oracle.file("id"), "root@127.0.0.1", "true"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let text = try String(contentsOfFile: knownHosts, encoding: .utf8)
            return Set(text.split(separator: "\n").map { $0.split(separator: " ").dropFirst().prefix(2).joined(separator: " ") })
        }
        // `known-hosts list` is the next hostbook command after ssh: it takes ssh's edits first.
        func hostbookKeys() throws -> (keys: Set<String>, stderr: String) {
            let list = try bed.fx.run("known-hosts", "list", "--json")
            XCTAssertEqual(list.status, 0, list.stderr)
            let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
            return (Set(entries.compactMap { $0["fingerprint"] as? String }), list.stderr)
        }
        func fingerprint(_ key: String) throws -> String {
            let file = oracle.file("fp.pub")
            try (key + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            return try XCTUnwrap(ToolProcess.sshKeygen(["-l", "-f", file]).stdout.split(separator: " ").dropFirst().first).description
        }

        // A first connection to an unknown host (the same server as 'localhost') teaches nothing.
        let first = try plainSSH("fresh")
        XCTAssertEqual(first.status, 255, first.stderr)
        XCTAssertTrue(first.stderr.contains("is not known"), first.stderr)
        XCTAssertEqual(try hostbookKeys().keys, [try fingerprint(rsa)])

        let before = try plainSSH("dev")
        XCTAssertEqual(before.status, 0, before.stderr + sshd.log)
        XCTAssertEqual(try hostbookKeys().keys, [try fingerprint(rsa)])

        // The server adds an Ed25519 key: one plain login learns it, as OpenSSH does.
        try sshd.restart(serving: ["rsa", "ed25519"])
        let second = try plainSSH("dev")
        XCTAssertEqual(second.status, 0, second.stderr + sshd.log)
        let afterSecond = try hostbookKeys()
        XCTAssertEqual(afterSecond.keys, [try fingerprint(rsa), try fingerprint(ed)], afterSecond.stderr)
        XCTAssertTrue(afterSecond.stderr.contains("proved it holds the ED25519 key"), afterSecond.stderr)
        XCTAssertEqual(try oracleLogin(), [rsa, ed])

        // The server drops its RSA key: the next login is not refused, and RSA is retired.
        try sshd.restart(serving: ["ed25519"])
        let third = try plainSSH("dev")
        XCTAssertEqual(third.status, 0, third.stderr + sshd.log)
        let afterThird = try hostbookKeys()
        XCTAssertEqual(afterThird.keys, [try fingerprint(ed)], afterThird.stderr)
        XCTAssertTrue(afterThird.stderr.contains("no longer offers the ssh-rsa"), afterThird.stderr)
        XCTAssertEqual(try oracleLogin(), [ed])

        let history = try bed.fx.run("known-hosts", "history", "--json")
        let events = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(events.filter { $0["source"] as? String == "rotation" }.compactMap { $0["event"] as? String }, ["learned", "retired"], history.stdout)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: bed.home + "/.ssh/known_hosts")), bed.knownHostsBefore, "the user's own file is never touched")
    }
}
