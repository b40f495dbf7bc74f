// A SoftHSM2 token for a fixture's account: a private token folder (SOFTHSM2_CONF in every
// run's environment), the token "hb" with user PIN 1234, an RSA key (CKA_ID 01, label k1)
// and an EC P-256 key (02, k2) made by OpenSC's pkcs11-tool.
import Foundation
import XCTest

enum SoftHSMToken {
    static let module = "/usr/lib/softhsm/libsofthsm2.so"
    static let pin = "1234"

    static func require() throws {
        guard FileManager.default.fileExists(atPath: module), FileManager.default.fileExists(atPath: "/usr/bin/pkcs11-tool"),
              FileManager.default.fileExists(atPath: "/usr/bin/softhsm2-util") else {
            throw XCTSkip("SoftHSM2 and OpenSC (scripts/setup) are not installed")
        }
    }

    struct SetupFailed: Error { let message: String }

    static func make(for fixture: HostbookFixture) throws {
        try require()
        let folder = fixture.dir.file("softhsm")
        let conf = folder + "/softhsm2.conf"
        fixture.environment["SOFTHSM2_CONF"] = conf
        let steps: [(String, [String])] = [
            ("/bin/mkdir", ["-p", folder + "/tokens"]),
            ("/bin/sh", ["-c", "printf 'directories.tokendir = %s\\nobjectstore.backend = file\\nlog.level = ERROR\\n' \"$0\" > \"$1\"", folder + "/tokens", conf]),
            ("/usr/bin/softhsm2-util", ["--init-token", "--free", "--label", "hb", "--pin", pin, "--so-pin", "5678"]),
            ("/usr/bin/pkcs11-tool", ["--module", module, "--login", "--pin", pin, "--keypairgen", "--key-type", "rsa:2048", "--id", "01", "--label", "k1"]),
            ("/usr/bin/pkcs11-tool", ["--module", module, "--login", "--pin", pin, "--keypairgen", "--key-type", "EC:prime256v1", "--id", "02", "--label", "k2"]),
        ]
        for (tool, args) in steps {
            let result = try fixture.tool(tool, args)
            guard result.status == 0 else { throw SetupFailed(message: "\(tool) \(args.joined(separator: " ")): \(result.stderr)") }
        }
    }
}
