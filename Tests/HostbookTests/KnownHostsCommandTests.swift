// `hostbook known-hosts scan` with the real binary against a private sshd (ssh-keyscan). The
// rest of known-hosts runs in-process: HostbookLogicTests/KnownHostsCommandLogicTests.
import Foundation
import TestSupport
import XCTest

final class KnownHostsCommandTests: XCTestCase, TestHostKeys {
    var tmp: TemporaryDirectory!
    var env: [String: String] = [:]

    override func setUpWithError() throws {
        tmp = try TemporaryDirectory()
        env = ["HOSTBOOK_DB": tmp.file("hostbook.db"), "HOME": tmp.path]
    }

    @discardableResult
    func hb(_ args: [String], stdin: String = "") throws -> HostbookResult {
        try HostbookProcess.run(args, stdin: Data(stdin.utf8), environment: env)
    }

    func assertResult(_ r: HostbookResult, _ status: Int32, stdout: String? = nil, stderr: String? = nil,
                      file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, "stderr: \(r.stderr)", file: file, line: line)
        if let stdout { XCTAssertEqual(r.stdout, stdout, file: file, line: line) }
        if let stderr { XCTAssertEqual(r.stderr, stderr, file: file, line: line) }
    }

    /// The SHA-256 fingerprint ssh-keygen prints for a public key line.
    func sshKeygenFingerprint(_ line: String) throws -> String {
        let file = tmp.file("fp-\(UUID().uuidString).pub")
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let r = try ToolProcess.sshKeygen(["-l", "-f", file])
        return String(r.stdout.split(separator: " ")[1])
    }

    // `scan` runs the real ssh-keyscan against a private sshd on 127.0.0.1.
    func testScanWithoutTerminal() throws {
        let sshd = try PrivateSSHD(hostKeyTypes: ["ed25519"])
        defer { sshd.stop() }
        let key = try sshd.publicKeyTypeAndBlob()
        let port = String(sshd.port)
        assertResult(try hb(["known-hosts", "scan", "127.0.0.1", "--port", port]), 3, stdout: "",
                     stderr: "hostbook: scan asks about new or changed keys but there is no terminal\n"
                        + "Check the fingerprint, then run 'hostbook known-hosts approve 127.0.0.1 --port \(port) --key '\(key)' --fingerprint \(try sshKeygenFingerprint(key))'.\n")
    }

    func testScanSavedHostNameUsesItsHostnameAndPort() throws {
        let sshd = try PrivateSSHD(hostKeyTypes: ["ed25519"])
        defer { sshd.stop() }
        let key = try sshd.publicKeyTypeAndBlob()
        let port = String(sshd.port)
        assertResult(try hb(["add", "web", "--hostname", "127.0.0.1", "--port", port]), 0)
        assertResult(try hb(["known-hosts", "scan", "web"]), 3)
        try hb(["known-hosts", "approve", "127.0.0.1", "--port", port, "--key", key, "--yes"])
        assertResult(try hb(["known-hosts", "scan", "web"]), 0,
                     stdout: "trusted: ED25519 key \(try sshKeygenFingerprint(key))\n",
                     stderr: "hostbook: 'web' is a saved host: using '127.0.0.1' port \(port)\n")
    }
}
