// The ssh_config import as a workflow, in-process on real files and a real database: the
// hosts and their file-wide notes as data, a host reached through a ProxyCommand skipped
// with its remedy, an encrypted IdentityFile without a .pub file reported with the remedy
// of importing it (ssh-keygen makes the key), and the take-over of the user's blocks with
// its backup, refused to restore once the file was edited.
import Foundation
import HostStore
import Sessions
import TestSupport
import Workflows
import XCTest

final class SSHConfigImportWorkflowTests: XCTestCase {
    var folder: TempFolder!
    var home: String { folder.file("home") }
    var userConfig: String { home + "/.ssh/config" }

    override func setUpWithError() throws {
        folder = try TempFolder()
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
    }

    func testTheImportReturnsItsHostsNotesAndRemedies() throws {
        let key = home + "/.ssh/locked"
        let keygen = try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "a passphrase", "-f", key])
        XCTAssertEqual(keygen.status, 0, keygen.stderr)
        try FileManager.default.removeItem(atPath: key + ".pub")
        try write("""
            Host web
                HostName web.test
                IdentityFile \(key)
            Host behind
                ProxyCommand nc %h %p
            Host *.lan
                User ops

            """, to: userConfig)
        let workspace = Workspace(environment: ["HOME": home], databasePath: folder.file("hostbook.db"))
        let read = try SSHConfigImport.read(workspace, path: userConfig)
        XCTAssertEqual(read.candidates.map(\.alias), ["web", "behind"])
        XCTAssertEqual(read.notes, [.hostPattern(patterns: ["*.lan"], file: userConfig, line: 6)])
        XCTAssertEqual(read.userFiles, [userConfig])
        XCTAssertEqual(read.candidates[0].identities.first?.remedy, .importKeyThenImportAgain(path: key))
        XCTAssertEqual(read.candidates[0].identities.first?.problem, "the key is encrypted and has no .pub file beside it")

        let dry = try SSHConfigImport.run(workspace, read, notes: ["a note"], dryRun: true)
        XCTAssertEqual(dry.count(.added), 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.databasePath), "a dry run creates no database")
        let report = try SSHConfigImport.run(workspace, read, notes: ["a note"], dryRun: false)
        XCTAssertEqual(report.notes.map(\.text), ["a note"])
        let skipped = try XCTUnwrap(report.hosts.first { $0.alias == "behind" })
        XCTAssertEqual(skipped.action, .skipped)
        XCTAssertEqual(skipped.reasonRemedy, .proxyJumpOrAddWithJump(name: "behind"))
        XCTAssertEqual(try workspace.database().host(named: "web")?.hostname, "web.test")
        XCTAssertEqual(SSHConfigImport.importedNames(report), ["web"])

        // The offer: for ~/.ssh/config only (another file refused when asked for, else none).
        let other = home + "/other_config"
        try write("Host web\n    HostName web.test\n", to: other)
        XCTAssertNil(try SSHConfigTakeOverOffer.make(workspace, report: report, path: other, files: [other], requested: false))
        XCTAssertThrowsError(try SSHConfigTakeOverOffer.make(workspace, report: report, path: other, files: [other], requested: true)) {
            guard case .takeOverNotUserConfig(other)? = $0 as? InstalledConfigRefusal else { return XCTFail("\($0)") }
        }
        let offer = try XCTUnwrap(try SSHConfigTakeOverOffer.make(workspace, report: report, path: userConfig, files: read.userFiles, requested: false))
        XCTAssertEqual(offer.taking.map(\.path), [userConfig])
        XCTAssertEqual(offer.taking.flatMap { $0.plan.taken.map(\.line) }, [1])

        // The take-over comments out the block for `web` only, keeping a backup.
        let takeOver = SSHConfigTakeOverFiles(installed: InstalledSSHConfig(workspace: workspace))
        let before = try XCTUnwrap(try ConfigFiles.read(userConfig))
        let changes = try takeOver.plan(files: read.userFiles, imported: SSHConfigImport.importedNames(report), date: "2026-01-02")
        XCTAssertEqual(changes.flatMap { $0.plan.taken.map(\.line) }, [1])
        try takeOver.apply(changes)
        XCTAssertEqual(try ConfigFiles.read(SSHConfigTakeOverFiles.backup(of: userConfig)), before)
        XCTAssertNotEqual(try ConfigFiles.read(userConfig), before)
        XCTAssertTrue(takeOver.hasBackups)

        // Edited since: nothing is restored, and the refusal names the file and its backup.
        let edited = try XCTUnwrap(try ConfigFiles.read(userConfig)) + Array("Host added\n".utf8)
        try Data(edited).write(to: URL(fileURLWithPath: userConfig))
        XCTAssertThrowsError(try takeOver.restores()) { error in
            guard case .restoreChangedSinceTakeOver(let path, let backup)? = error as? InstalledConfigRefusal else { return XCTFail("\(error)") }
            XCTAssertEqual(path, userConfig)
            XCTAssertEqual(backup, SSHConfigTakeOverFiles.backup(of: userConfig))
        }
        XCTAssertEqual(try ConfigFiles.read(userConfig), edited)
    }

    func testAFileSSHRefusesIsRefusedWithTheLoadersError() throws {
        try write("Host web\n    HostName \"open\n", to: userConfig)
        let workspace = Workspace(environment: ["HOME": home], databasePath: folder.file("hostbook.db"))
        XCTAssertThrowsError(try SSHConfigImport.read(workspace, path: userConfig)) { error in
            guard case .configNotLoaded(let loader, let root)? = error as? InstalledConfigRefusal else { return XCTFail("\(error)") }
            XCTAssertEqual(root, userConfig)
            XCTAssertEqual(loader.line, 2)
        }
    }
}
