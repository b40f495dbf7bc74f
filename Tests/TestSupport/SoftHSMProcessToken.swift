// One SoftHSM2 token for the whole test process (a module is initialised once per process,
// with the configuration SOFTHSM2_CONF names at that moment): a private token folder, the
// token "hb" with user PIN 1234, and two key pairs made by pkcs11-tool (rsa:2048 as CKA_ID 01,
// EC P-256 as 02).
import Foundation
import XCTest

public enum SoftHSMProcessToken {
    public static let module = "/usr/lib/softhsm/libsofthsm2.so"
    public static let pin = "1234"
    public static let label = "hb"

    public static func require() throws {
        guard FileManager.default.fileExists(atPath: module), Tool.which("softhsm2-util") != nil, Tool.which("pkcs11-tool") != nil else {
            throw XCTSkip("SoftHSM2 and OpenSC (scripts/setup) are not installed")
        }
        if let failure = made { XCTFail(failure) }
    }

    /// nil when the token was made; else why not.
    private static let made: String? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostbook-softhsm-\(UUID().uuidString)").path
        let tokens = folder + "/tokens"
        try? FileManager.default.createDirectory(atPath: tokens, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let conf = folder + "/softhsm2.conf"
        try? "directories.tokendir = \(tokens)\nobjectstore.backend = file\nlog.level = ERROR\n".write(toFile: conf, atomically: true, encoding: .utf8)
        setenv("SOFTHSM2_CONF", conf, 1)
        var environment = ProcessInfo.processInfo.environment
        environment["SOFTHSM2_CONF"] = conf
        let steps: [(String, [String])] = [
            ("softhsm2-util", ["--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", "5678"]),
            ("pkcs11-tool", ["--module", module, "--login", "--pin", pin, "--keypairgen", "--key-type", "rsa:2048", "--id", "01", "--label", "k1"]),
            ("pkcs11-tool", ["--module", module, "--login", "--pin", pin, "--keypairgen", "--key-type", "EC:prime256v1", "--id", "02", "--label", "k2"]),
        ]
        for (tool, args) in steps {
            guard let path = Tool.which(tool), let result = try? Tool.run(path, args, environment: environment) else { return "\(tool) did not run" }
            guard result.status == 0 else { return "\(tool) \(args.joined(separator: " ")) failed: \(result.stderr)" }
        }
        return nil
    }()
}
