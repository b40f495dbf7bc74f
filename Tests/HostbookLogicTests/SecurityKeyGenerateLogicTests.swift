// `hostbook keys generate --type ed25519-sk` in-process (InProcessCommand), with OpenSSH's
// own software authenticator (sk-dummy.so, Debian's openssh-tests) as the provider: the key
// it makes is one ssh-keygen reads; no authenticator, or a provider that is not there, is
// one line that names the key and what to do, and stores nothing. Logins and signatures
// with security keys: HostbookTests/SecurityKeyLoginTests.
import Foundation
@testable import hostbook
import XCTest

final class SecurityKeyGenerateLogicTests: XCTestCase {
    static let skDummy = "/usr/lib/openssh/regress/misc/sk-dummy/sk-dummy.so"
    var fx: InProcessCommand!

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.skDummy), "openssh-tests is not installed (scripts/setup)")
        fx = try InProcessCommand()
        fx.environment["SSH_SK_PROVIDER"] = Self.skDummy
    }

    override func tearDown() { fx = nil }

    func testGenerateThroughTheProviderGivesAKeySSHKeygenReads() throws {
        let made = try fx.run(["keys", "generate", "made-sk", "--type", "ed25519-sk", "--application", "ssh:made", "--resident"])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stdout.hasPrefix("sk-ssh-ed25519@openssh.com "), made.stdout)
        let file = fx.dir.file("made-sk")
        let exported = try fx.run(["keys", "export", "made-sk", "--no-passphrase", "--output", file])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let read = try fx.tool("/usr/bin/ssh-keygen", ["-y", "-f", file])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stdout.split(separator: " ").prefix(2), made.stdout.split(separator: " ").prefix(2))
        XCTAssertTrue(read.stdout.split(separator: " ")[0] == "sk-ssh-ed25519@openssh.com")
        try FileManager.default.removeItem(atPath: file)

        // No authenticator (OpenSSH's USB provider finds none here), or a provider that is
        // not there: one line that names the key and what to do; nothing stored.
        var noDevice = fx.environment
        noDevice["SSH_SK_PROVIDER"] = nil
        fx.environment = noDevice
        let missing = try fx.run(["keys", "generate", "absent", "--type", "ecdsa-sk"])
        XCTAssertEqual(missing.status, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.hasPrefix("hostbook: no security key answered for 'absent'\nPlug in the authenticator"), missing.stderr)
        fx.environment["SSH_SK_PROVIDER"] = fx.dir.file("no-such-provider.so")
        let broken = try fx.run(["keys", "generate", "absent", "--type", "ed25519-sk"])
        XCTAssertEqual(broken.status, 1, broken.stderr)
        XCTAssertTrue(broken.stderr.hasPrefix("hostbook: cannot load the security-key provider "), broken.stderr)
        XCTAssertEqual(try fx.run(["keys", "show", "absent"]).status, 4)
        let usage = try fx.run(["keys", "generate", "x", "--type", "ed25519-sk", "--application", "web:x"])
        XCTAssertEqual(usage.status, 2, usage.stderr)
    }
}
