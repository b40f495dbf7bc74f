// The installed ssh configuration as a workflow, in-process on real files and a real
// database: installing puts the Include line on top of ~/.ssh/config (the rest kept, a
// backup beside it), the files are read through the workspace's one database handle, a
// refresh after `add` writes only the new host's file, and uninstalling gives
// ~/.ssh/config back byte for byte. A file that is no regular file is refused as data.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HostStore
import Sessions
import TestSupport
import Workflows
import XCTest

final class InstalledSSHConfigWorkflowTests: XCTestCase {
    var folder: TempFolder!
    var home: String { folder.file("home") }
    let programs = InstalledSSHConfig.Programs(hostbook: "/usr/bin/hostbook", agentSocket: "/run/hostbook/agent.sock")

    override func setUpWithError() throws {
        folder = try TempFolder()
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func workspace() -> Workspace {
        Workspace(environment: ["HOME": home], databasePath: folder.file("hostbook.db"))
    }

    func testInstallRefreshAfterAddAndUninstallOverTheWorkspacesDatabase() throws {
        let own = "Host mine\n    HostName mine.test\n"
        try Data(own.utf8).write(to: URL(fileURLWithPath: home + "/.ssh/config"))
        let workspace = workspace()
        let database = try workspace.database()
        try database.addHost(NewHost(name: "web", hostname: "web.test"))
        try database.addHost(NewHost(name: "mine", hostname: "other.test"))

        let installed = InstalledSSHConfig(workspace: workspace)
        XCTAssertFalse(installed.isInstalled)
        var told: StandingSSHConfig.Rendered?
        let done = try installed.install(programs) { told = $0 }
        XCTAssertTrue(done.includeAdded)
        XCTAssertEqual(told?.written, ["web"], "the user's own block keeps 'mine'")
        XCTAssertEqual(done.rendered.clashes.map(\.host), ["mine"])
        XCTAssertTrue(installed.isInstalled)
        let config = try XCTUnwrap(try ConfigFiles.read(installed.userConfig))
        XCTAssertEqual(String(decoding: config, as: UTF8.self), try installed.includeLine() + own)
        XCTAssertEqual(try ConfigFiles.read(installed.backup), Array(own.utf8))
        XCTAssertTrue(installed.isCurrent(try installed.render(programs)))
        XCTAssertFalse(try installed.install(programs) { _ in }.includeAdded, "already included")

        // A host added through the same handle: `add` writes its own file only.
        try database.addHost(NewHost(name: "late", hostname: "late.test"))
        XCTAssertFalse(installed.isCurrent(try installed.render(programs)), "the new host is not in the files yet")
        let rendered = try installed.refresh(programs, added: "late")
        XCTAssertEqual(rendered.written, ["late"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: installed.addedFolder).count, 1)
        XCTAssertTrue(installed.isCurrent(try installed.render(programs)), "the generated file and the added one hold every host")
        _ = try installed.refresh(programs, added: nil)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: installed.addedFolder), [], "written whole: the added files are gone")

        let removed = try installed.uninstall(restoring: false)
        XCTAssertTrue(removed.removed)
        XCTAssertTrue(removed.restores.isEmpty)
        XCTAssertFalse(installed.isInstalled)
        XCTAssertEqual(try ConfigFiles.read(installed.userConfig), Array(own.utf8))
        XCTAssertFalse(try installed.uninstall(restoring: false).removed, "nothing left to remove")
    }

    func testDoctorsCheckSeesTheInstalledConfigurationAsData() throws {
        struct NoProgram: Error {}
        let workspace = workspace()
        let check = { (programs: @escaping () throws -> InstalledSSHConfig.Programs) in
            InstalledSSHConfigCheck(workspace: workspace, programs: programs, agentSocket: { "/run/none/agent.sock" }, runningAgent: { _ in nil }).run()
        }
        guard case .sshConfigNotInstalled? = check({ self.programs }).first else { return XCTFail("installed") }
        try Data("Host mine\n    HostName mine.test\n".utf8).write(to: URL(fileURLWithPath: home + "/.ssh/config"))
        let database = try workspace.database()
        try database.addHost(NewHost(name: "web", hostname: "web.test"))
        try database.addHost(NewHost(name: "mine", hostname: "other.test"))
        _ = try InstalledSSHConfig(workspace: workspace).install(programs) { _ in }
        let seen = check({ self.programs }).map { o -> String in
            switch o {
            case .sshConfigIncluded: "included"
            case .sshConfigCurrent: "current"
            case .sshConfigClash(let host, _, _): "clash \(host)"
            case .agentStopped(let socket): "stopped \(socket)"
            case .sshConfigResolves(let name): "resolves \(name)"
            case .sshConfigNotResolving(let name, _): "not resolving \(name)"
            default: "\(o)"
            }
        }
        XCTAssertEqual(seen, ["included", "current", "clash mine", "stopped /run/none/agent.sock", "resolves web"])
        // What the blocks name cannot be found: one finding carrying the error, nothing else rendered.
        let failed = check({ throw NoProgram() })
        XCTAssertTrue(failed.contains { if case .sshConfigUnrenderable(_, let e) = $0 { e is NoProgram } else { false } })
        XCTAssertFalse(failed.contains { if case .sshConfigCurrent = $0 { true } else { false } })
    }

    func testRenderingWithoutADatabaseCreatesNone() throws {
        let workspace = workspace()
        let rendered = try InstalledSSHConfig(workspace: workspace).render(programs)
        XCTAssertEqual(rendered.written, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.databasePath))
        XCTAssertEqual(try PlainSSHKnownHosts(workspace: workspace).reconcileAll().count, 0, "not installed: no files kept")
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.databasePath))
    }

    func testAUserConfigurationThatIsAFIFOIsRefusedAsDataWithoutBlocking() throws {
        let path = home + "/.ssh/config"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        XCTAssertThrowsError(try ConfigFiles.read(path)) { error in
            guard case .notARegularFile(let named)? = error as? InstalledConfigRefusal else { return XCTFail("\(error)") }
            XCTAssertEqual(named, path)
        }
        XCTAssertNil(try ConfigFiles.read(home + "/none"), "a missing file is no error")
    }
}
