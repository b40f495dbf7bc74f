// `keys import`'s work in-process, against a real SQLite database and the real Secret
// Service of the session (scripts/with-keyring), with ssh-keygen as the oracle for the key
// files: a wrong passphrase is asked again up to three times, the key stored is the file's,
// a certificate beside it for another key is reported and not attached, and a public key
// file is refused as one.
import Foundation
import HostStore
import KeyFormats
import SecureMemory
import TestSupport
import Vault
import Workflows
import XCTest

final class KeyImportTests: XCTestCase {
    private var folder: TempFolder!
    private var workspace: Workspace!

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, VaultClient.health().status == .ok else {
            throw XCTSkip("needs a Secret Service: run inside scripts/with-keyring")
        }
        guard Tool.sshKeygen != nil else { throw XCTSkip("needs ssh-keygen") }
        folder = try TempFolder()
        workspace = Workspace(environment: ["HOME": folder.path], databasePath: folder.file("hostbook.db"))
    }

    override func tearDownWithError() throws {
        if let workspace, let credentials = try? workspace.existingCredentials() {
            for item in (try? credentials.vault.allItems()) ?? [] { _ = try? credentials.vault.delete(item) }
        }
        workspace = nil
        folder = nil
    }

    /// Answers the passphrases in order and records what it was asked.
    private final class Answers: KeyImportAsker {
        var passphrases: [String]
        var attempts: [Int] = []
        init(_ passphrases: [String]) { self.passphrases = passphrases }
        func givenPassphrase() throws -> SecretBytes? { nil }
        func askPassphrase(for source: KeysRefusal.Source, attempt: Int) throws -> SecretBytes {
            attempts.append(attempt)
            return SecretBytes(copying: Array(passphrases.removeFirst().utf8))
        }
        func slowDecryption(of source: KeysRefusal.Source, rounds: Int) {}
        func decrypting(rounds: Int, _ body: () throws -> ImportedPrivateKey) throws -> ImportedPrivateKey { try body() }
    }

    private func keygen(_ args: [String]) throws {
        let run = try Tool.run(Tool.sshKeygen!, args)
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    private func fingerprint(_ path: String) throws -> String {
        String(try Tool.output(Tool.sshKeygen!, ["-l", "-E", "sha256", "-f", path]).stdout.split(separator: " ")[1])
    }

    func testAWrongPassphraseIsAskedAgainAndACertificateOfAnotherKeyIsNotAttached() throws {
        let key = folder.file("id_work"), other = folder.file("other"), ca = folder.file("ca")
        try keygen(["-q", "-t", "ed25519", "-N", "right", "-C", "work laptop", "-f", key])
        try keygen(["-q", "-t", "ed25519", "-N", "", "-f", other])
        try keygen(["-q", "-t", "ed25519", "-N", "", "-f", ca])
        try keygen(["-q", "-s", ca, "-I", "other", "-n", "alice", other + ".pub"])
        try FileManager.default.moveItem(atPath: other + "-cert.pub", toPath: key + "-cert.pub")

        let answers = Answers(["wrong", "right"])
        let result = try KeyImport.run(path: key, name: "work", workspace: workspace, asker: answers)
        XCTAssertEqual(answers.attempts, [1, 2])
        XCTAssertEqual(result.key.name, "work")
        XCTAssertEqual(result.key.comment, "work laptop")
        XCTAssertEqual(result.key.fingerprint, try fingerprint(key + ".pub"))
        XCTAssertFalse(result.restored)
        XCTAssertNil(result.certificate)
        let (file, error) = try XCTUnwrap(result.certificateNotAttached)
        XCTAssertEqual(file, key + "-cert.pub")
        guard case .certifiesAnotherKey = error as? KeyCertificateRefusal else { return XCTFail("\(error)") }
        XCTAssertNil(try workspace.credentials().keys.find(name: "work")?.certificate)
        // The vault holds the decrypted key: it opens without a passphrase and is the file's.
        let ctx = try KeysContext.open(workspace)
        XCTAssertEqual(try VaultPrivateKey.read(result.key, from: ctx.vault).publicKey.sha256Fingerprint, result.key.fingerprint)
    }

    func testThreeWrongPassphrasesStoreNothing() throws {
        let key = folder.file("id_ed25519")
        try keygen(["-q", "-t", "ed25519", "-N", "right", "-f", key])
        let answers = Answers(["a", "b", "c"])
        XCTAssertThrowsError(try KeyImport.run(path: key, name: "k", workspace: workspace, asker: answers)) {
            guard case .incorrectPassphrase(.file(key)) = $0 as? KeysRefusal else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(answers.attempts, [1, 2, 3])
        XCTAssertNil(try workspace.credentials().keys.find(name: "k"))
    }

    func testAPublicKeyFileIsRefusedAsOne() throws {
        let key = folder.file("id_ed25519")
        try keygen(["-q", "-t", "ed25519", "-N", "", "-f", key])
        XCTAssertThrowsError(try KeyImport.run(path: key + ".pub", name: "k", workspace: workspace, asker: Answers([]))) {
            guard case .publicKeyNotPrivate(.file(key + ".pub")) = $0 as? KeysRefusal else { return XCTFail("\($0)") }
        }
    }
}
