// After ssh ends, what a session's rotation files teach the store (Workflows'
// SSHRotationLearning), in-process against a real SQLite store and a real session folder:
// a file ssh left as it was asks for no database (nothing is opened after ssh started), a
// file with a proven new key asks for the workspace's writable handle once and learns it;
// and a session's plan comes from its workspace, which creates nothing when there is no
// database.
import Foundation
import HostStore
import KeyFormats
import Sessions
import TestSupport
import Workflows
import XCTest

final class SSHRotationLearningTests: XCTestCase {
    func testAnUnchangedFileAsksForNoDatabaseAndANewProvenKeyIsLearned() throws {
        let folder = try TempFolder()
        let path = folder.file("hostbook.db")
        let setup = try HostDatabase.open(path: path)
        try setup.addHost(NewHost(name: "web", hostname: "web.test", port: 2222))
        let hostKey = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "").publicKey
        XCTAssertTrue(try KnownHostsStore(database: setup).approve(HostLookupName(host: "web.test", port: 2222), key: hostKey, source: "tofu"))

        let workspace = Workspace(environment: ["HOME": folder.path], databasePath: path)
        let (database, plan) = try SSHSession.plan(workspace, name: "web", user: nil, snippetName: nil)
        XCTAssertTrue(database.isReadOnly, "the session reads through a read-only handle")
        let rows = try XCTUnwrap(plan.target.rotation)
        let files = try SessionFolder(in: folder.path)
        defer { files.remove() }
        var paths = SSHSessionConfig.Paths()
        paths.rotationFiles["web"] = try files.write("hop1-known_hosts", Array(HostKeyRotation.knownHostsText(rows).utf8))

        var asked = 0
        let unchanged = SSHRotationLearning.learn(plan: plan, database: { asked += 1; return try workspace.database() }, files: files, paths: paths)
        XCTAssertEqual(asked, 0, "ssh changed nothing: no database is opened")
        guard case .learned(let same)? = unchanged.first, unchanged.count == 1 else { return XCTFail("\(unchanged)") }
        XCTAssertEqual(same.outcome, .unchanged)

        // ssh proved a second key and wrote it into the hop's file.
        let newKey = try PrivateKeyGenerator.generate(.ecdsa, bits: nil, comment: "").publicKey
        let file = try XCTUnwrap(paths.rotationFiles["web"])
        let grown = HostKeyRotation.knownHostsText(rows) + "[web.test]:2222 \(newKey.line(comment: ""))\n"
        try Array(grown.utf8).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: file)) }
        let events = SSHRotationLearning.learn(plan: plan, database: { asked += 1; return try workspace.database() }, files: files, paths: paths)
        XCTAssertEqual(asked, 1)
        guard case .learned(let learned)? = events.first, events.count == 1 else { return XCTFail("\(events)") }
        XCTAssertEqual(learned.outcome, .learned(added: [newKey], retired: []))
        XCTAssertEqual(learned.alias, "web")
        XCTAssertEqual(try KnownHostsStore(database: setup).entries(matching: HostLookupName(host: "web.test", port: 2222)).count, 2)
    }

    func testAPlanWithoutADatabaseIsNoSuchHostAndCreatesNothing() throws {
        let folder = try TempFolder()
        let workspace = Workspace(environment: ["HOME": folder.path], databasePath: folder.file("data/hostbook.db"))
        XCTAssertThrowsError(try SSHSession.plan(workspace, name: "web", user: nil, snippetName: nil)) { error in
            XCTAssertEqual(error as? SessionRefusal, .hostNotFound(name: "web", nearest: nil))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("data")))
    }

    func testTheSSHVersionIsReadFromItsBannerAndAMissingSSHIsARefusal() {
        XCTAssertEqual(SSHClient.parseVersion("OpenSSH_9.2p1 Debian-2+deb12u6, OpenSSL 3.0.15 3 Sep 2024").map { [$0.0, $0.1] }, [9, 2])
        XCTAssertNil(SSHClient.parseVersion("Sun_SSH_1.1"))
        XCTAssertThrowsError(try SSHClient.require(nil)) { error in
            guard case .sshNotFound? = error as? SSHSessionRefusal else { return XCTFail("\(error)") }
        }
        XCTAssertNil(try SSHClient.probe(environment: ["PATH": "/nonexistent"]), "no ssh on PATH: none")
    }
}
