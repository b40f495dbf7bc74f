// `hostbook keys import-token` with a real PKCS#11 module (SoftHSM2), run as the test
// account: the recorded keys are the ones `ssh-keygen -D` lists, with the token's identity;
// a wrong PIN is exit 6 with nothing recorded; a module outside the system folders is refused.
import Foundation
import XCTest

final class KeysImportTokenTests: XCTestCase {
    private static let module = "/usr/lib/softhsm/libsofthsm2.so"

    /// A fixture whose account owns a SoftHSM2 token "hb" (user PIN 1234) with an RSA and an
    /// EC P-256 key; `SOFTHSM2_CONF` is in every run's environment.
    private func tokenFixture() throws -> HostbookFixture {
        guard FileManager.default.fileExists(atPath: Self.module), FileManager.default.fileExists(atPath: "/usr/bin/pkcs11-tool") else {
            throw XCTSkip("SoftHSM2 and OpenSC (scripts/setup) are not installed")
        }
        let fixture = try HostbookFixture()
        let folder = fixture.dir.file("softhsm")
        let conf = folder + "/softhsm2.conf"
        fixture.environment["SOFTHSM2_CONF"] = conf
        let steps: [(String, [String])] = [
            ("/bin/mkdir", ["-p", folder + "/tokens"]),
            ("/bin/sh", ["-c", "printf 'directories.tokendir = %s\\nobjectstore.backend = file\\nlog.level = ERROR\\n' \"$0\" > \"$1\"", folder + "/tokens", conf]),
            ("/usr/bin/softhsm2-util", ["--init-token", "--free", "--label", "hb", "--pin", "1234", "--so-pin", "5678"]),
            ("/usr/bin/pkcs11-tool", ["--module", Self.module, "--login", "--pin", "1234", "--keypairgen", "--key-type", "rsa:2048", "--id", "01", "--label", "k1"]),
            ("/usr/bin/pkcs11-tool", ["--module", Self.module, "--login", "--pin", "1234", "--keypairgen", "--key-type", "EC:prime256v1", "--id", "02", "--label", "k2"]),
        ]
        for (tool, args) in steps {
            let result = try fixture.tool(tool, args)
            XCTAssertEqual(result.status, 0, "\(tool): \(result.stderr)")
        }
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
        let fixture = try HostbookFixture()
        let result = try fixture.run("keys", "import-token", "/tmp/p11.so")
        XCTAssertEqual(result.status, 5, result.stderr)
        XCTAssertTrue(result.stderr.contains("--allow-module"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.db), "nothing is written for a refused module")
    }
}
