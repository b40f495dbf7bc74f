// `hostbook keys import-token` with a real PKCS#11 module (SoftHSM2, the test process's
// token: SoftHSMProcessToken), in-process (InProcessCommand runs Hostbook.main): the
// recorded keys are the ones `ssh-keygen -D` lists, with the token's identity; a wrong PIN
// is exit 6 with nothing recorded; a module outside the system folders is refused. Moved
// from HostbookTests/KeysImportTokenTests; TokenLoginTests logs in with a token key end to
// end as the test account.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class KeysImportTokenTests: XCTestCase {
    private static let module = SoftHSMProcessToken.module

    private func tokenFixture() throws -> InProcessCommand {
        try SoftHSMProcessToken.require()
        let fixture = try InProcessCommand()
        // The module reads this process's SOFTHSM2_CONF; ssh-keygen -D gets it too.
        fixture.environment["SOFTHSM2_CONF"] = try XCTUnwrap(getenv("SOFTHSM2_CONF").map { String(cString: $0) })
        return fixture
    }

    func testTheTokensKeysAreRecordedAsSSHKeygenListsThem() throws {
        let fixture = try tokenFixture()
        let listed = try fixture.tool("/usr/bin/ssh-keygen", ["-D", Self.module])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let theirs = Set(listed.stdout.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") })

        let result = try fixture.run(["keys", "import-token", Self.module, "--label", "hb", "--name", "yk-", "--pin-stdin", "--json"], stdin: "1234\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let keys = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdoutBytes) as? [[String: Any]])
        XCTAssertEqual(Set(keys.compactMap { $0["name"] as? String }), ["yk-k1", "yk-k2"])
        XCTAssertEqual(Set(keys.compactMap { ($0["public_key"] as? String)?.split(separator: " ").prefix(2).joined(separator: " ") }), theirs)
        for key in keys {
            XCTAssertEqual(key["location"] as? String, "token")
            let token = try XCTUnwrap(key["token"] as? [String: Any])
            XCTAssertEqual(token["label"] as? String, "hb")
            XCTAssertEqual((token["manufacturer"] as? String)?.hasPrefix("SoftHSM"), true)
            XCTAssertFalse((token["serial"] as? String ?? "").isEmpty)
        }
        XCTAssertEqual(Set(keys.compactMap { $0["object_id"] as? String }), ["01", "02"])
        // Nothing secret in the database: the PIN is nowhere in it.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.db))
        XCTAssertNil(bytes.range(of: Data("1234\n".utf8)))

        // They are saved keys like any other, located on the token.
        let listed2 = try fixture.run("keys", "list", "--json")
        XCTAssertEqual(listed2.status, 0, listed2.stderr)
        let saved = try XCTUnwrap(JSONSerialization.jsonObject(with: listed2.stdoutBytes) as? [[String: Any]])
        XCTAssertEqual(Set(saved.compactMap { $0["name"] as? String }), ["yk-k1", "yk-k2"])
        XCTAssertEqual(Set(saved.compactMap { $0["location"] as? String }), ["token"])

        // Again: every key is recorded already and left as it is.
        let again = try fixture.run("keys", "import-token", Self.module)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "")
        XCTAssertTrue(again.stderr.contains("2 key(s) were recorded already"), again.stderr)
    }

    func testAWrongPINIsExit6AndRecordsNothing() throws {
        let fixture = try tokenFixture()
        let result = try fixture.run(["keys", "import-token", Self.module, "--pin-stdin"], stdin: "9999\n")
        XCTAssertEqual(result.status, 6, result.stderr)
        XCTAssertTrue(result.stderr.contains("refused the PIN"), result.stderr)
        let after = try fixture.run(["keys", "import-token", Self.module, "--json"])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: after.stdoutBytes) as? [Any])?.count, 2, "nothing was recorded by the refused import")
    }

    func testAModuleOutsideTheSystemFoldersMustBeNamed() throws {
        let fixture = try InProcessCommand()
        let result = try fixture.run("keys", "import-token", "/tmp/p11.so")
        XCTAssertEqual(result.status, 5, result.stderr)
        XCTAssertTrue(result.stderr.contains("--allow-module"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.db), "nothing is written for a refused module")
        // Named with --allow-module it is tried (and, being absent, fails to load: exit 1).
        let named = try fixture.run("keys", "import-token", "/tmp/p11.so", "--allow-module", "/tmp/p11.so")
        XCTAssertEqual(named.status, 1, named.stderr)
        XCTAssertTrue(named.stderr.contains("cannot load the PKCS#11 module"), named.stderr)
    }
}
