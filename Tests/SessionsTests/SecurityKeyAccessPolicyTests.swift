// Every access-policy test of AgentAccessPolicyTests again, with the saved user keys on a
// security key (ed25519-sk and ecdsa-sk made by ssh-keygen on OpenSSH's software
// authenticator, sk-dummy.so) and the agent signing through the provider: a destination not
// saved for a hardware key is never offered it, exactly as for a vault key.
import Foundation
import XCTest
import Agent
import KeyFormats
import SecurityKeys

final class SecurityKeyAccessPolicyTests: AgentAccessPolicyTests {
    static let skDummy = "/usr/lib/openssh/regress/misc/sk-dummy/sk-dummy.so"

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.skDummy), "openssh-tests is not installed (scripts/setup)")
        try super.setUpWithError()
    }

    override class func makeUserKey(_ name: String, index: Int, in folder: String) throws -> PrivateKey {
        let file = folder + "/" + name
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        process.arguments = ["-q", "-t", index % 2 == 0 ? "ed25519-sk" : "ecdsa-sk", "-w", skDummy, "-N", "", "-C", name, "-f", file]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return try PrivateKeyFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))), passphrase: nil).key
    }

    override class func identity(_ key: PrivateKey, name: String) -> AgentIdentity {
        let signer = SecurityKeySigner(provider: .library(path: skDummy))
        let held = HeldKey(key)
        return AgentIdentity(publicKey: key.publicKey, comment: name) { data, _ in try signer.sign(held.key, data: data) }
    }

    func testTheKeysAreSecurityKeys() throws {
        let folder = NSTemporaryDirectory() + "/sk-probe-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for index in 0..<2 { XCTAssertTrue(try Self.makeUserKey("probe\(index)", index: index, in: folder).needsSecurityKey) }
    }
}

private final class HeldKey: @unchecked Sendable {
    let key: PrivateKey
    init(_ key: PrivateKey) { self.key = key }
}
