// Finishing the move from ~/.ssh/config (issue 34, item 3), in-process (InProcessCommand):
// after `import-ssh-config`, `ssh-config --install` leaves the imported hosts to the user's
// own Host blocks and says which lines and which command hands them over;
// `import-ssh-config --take-over` comments those blocks out in place (a symbolic link to a
// dotfiles file, CR LF line endings, mode 0640 all kept; a backup beside it; a block with a
// pattern reported and left), so that the real `ssh -G` resolves the host through
// hostbook's configuration; `ssh-config --uninstall --restore` gives the original bytes
// back, and refuses, changing nothing, when the file was edited since. The yes on a
// terminal: HostbookTests/ImportSSHConfigTakeOverTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class ImportSSHConfigTakeOverLogicTests: XCTestCase {
    private let original = TakeOverHome.original

    private struct Home {
        let fx: InProcessCommand
        let files: TakeOverHome
    }

    /// A home whose ~/.ssh/config is a link to dotfiles/ssh_config (CR LF, 0640).
    private func makeHome() throws -> Home {
        let fx = try InProcessCommand()
        let files = try TakeOverHome(in: fx.dir.path)
        fx.environment.merge(files.environment) { $1 }
        return Home(fx: fx, files: files)
    }

    private func bytes(_ path: String) -> [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }
    private func text(_ path: String) -> String { String(decoding: bytes(path), as: UTF8.self) }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    private func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// What the real ssh resolves for `name` from the user's configuration.
    private func resolve(_ h: Home, _ name: String) throws -> String {
        let r = try h.fx.tool("/usr/bin/ssh", ["-G", "-F", h.files.userConfig, name])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    func testTheInstallSaysWhichLinesAndTheTakeOverHandsThemToHostbookUntilRestored() throws {
        let h = try makeHome()
        let imported = try h.fx.run(["import-ssh-config"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(bytes(h.files.dotfile), Array(original.utf8), "a plain import without a terminal changes nothing")
        XCTAssertTrue(imported.stderr.contains("'hostbook import-ssh-config --take-over'"), imported.stderr)

        // The install leaves both hosts to the user's blocks and says exactly where (line
        // numbers of the file as it is now, with the Include line on top) and what to run.
        let install = try h.fx.run(["ssh-config", "--install"])
        XCTAssertEqual(install.status, 0, install.stderr)
        XCTAssertTrue(text(h.files.dotfile).hasPrefix("Include \(h.files.generated)\n"))
        XCTAssertTrue(install.stderr.contains("your own Host blocks at '\(h.files.userConfig)' line 5 keep hostbook's configuration from serving their hosts; 'hostbook import-ssh-config --take-over' comments them out"), install.stderr)
        XCTAssertTrue(install.stderr.contains("your Host block at '\(h.files.userConfig)' line 9 keeps its hosts from hostbook's configuration and is one to edit by hand: it also holds a pattern or a negation (staging-*)"), install.stderr)
        XCTAssertFalse(try resolve(h, "db").contains("knownhostscommand"), "the user's block still serves db")

        let takeOver = try h.fx.run(["import-ssh-config", "--take-over"])
        XCTAssertEqual(takeOver.status, 0, takeOver.stderr)
        XCTAssertTrue(takeOver.stderr.contains("left your Host block at '\(h.files.userConfig)' line 9 as it is"), takeOver.stderr)
        XCTAssertTrue(takeOver.stderr.contains("Commented out 1 Host block in '\(h.files.userConfig)' (line 5 before)"), takeOver.stderr)
        let after = text(h.files.dotfile)
        XCTAssertTrue(after.contains("\r\n# hostbook took over the Host block below on "), after)
        XCTAssertTrue(after.contains("#hostbook# Host db\r\n#hostbook#   HostName 10.0.0.7\r\n#hostbook#   User root\r\n\r\nHost web staging-*\r\n"), after)
        XCTAssertTrue(isLink(h.files.userConfig), "the link stays a link")
        XCTAssertEqual(mode(h.files.dotfile), 0o640)
        XCTAssertEqual(bytes(h.files.backup), Array(("Include \(h.files.generated)\n" + original).utf8))
        // The import rewrote the installed file: db is hostbook's now, through plain ssh's own reading.
        XCTAssertTrue(text(h.files.generated).contains("Host db\n"), text(h.files.generated))
        let db = try resolve(h, "db")
        XCTAssertTrue(db.contains("knownhostscommand ") && db.contains("hostname 10.0.0.7"), db)
        XCTAssertFalse(try resolve(h, "web").contains("knownhostscommand"), "web is still the user's")

        // Restore: the original bytes, the link and mode kept, the backup gone.
        let restore = try h.fx.run(["ssh-config", "--uninstall", "--restore"])
        XCTAssertEqual(restore.status, 0, restore.stderr)
        XCTAssertEqual(bytes(h.files.dotfile), Array(original.utf8))
        XCTAssertTrue(isLink(h.files.userConfig))
        XCTAssertEqual(mode(h.files.dotfile), 0o640)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.files.backup))
        XCTAssertTrue(restore.stdout.contains("Gave back your Host blocks in \(h.files.userConfig)"), restore.stdout)
    }

    func testRestoreRefusesAFileEditedSinceAndChangesNothing() throws {
        let h = try makeHome()
        XCTAssertEqual(try h.fx.run(["import-ssh-config", "--take-over"]).status, 0)
        XCTAssertEqual(bytes(h.files.backup), Array(original.utf8))
        XCTAssertEqual(try h.fx.run(["ssh-config", "--install"]).status, 0)
        let edited = text(h.files.dotfile) + "Host new\r\n  HostName new.example\r\n"
        try Data(edited.utf8).write(to: URL(fileURLWithPath: h.files.dotfile))
        let refused = try h.fx.run(["ssh-config", "--uninstall", "--restore"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("changed since hostbook took over Host blocks of it; nothing was restored or uninstalled"), refused.stderr)
        XCTAssertEqual(text(h.files.dotfile), edited, "nothing changed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.files.generated))
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.files.backup))
        // --restore alone is a usage error.
        XCTAssertEqual(try h.fx.run(["ssh-config", "--restore"]).status, 2)
    }

    func testTakeOverOfAnotherFileIsAUsageErrorThatWritesNothing() throws {
        let h = try makeHome()
        let other = h.fx.dir.file("other_config")
        try Data("Host web\n  HostName web.example\n".utf8).write(to: URL(fileURLWithPath: other))
        let refused = try h.fx.run(["import-ssh-config", other, "--take-over"])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.hasSuffix("hostbook: --take-over works on ~/.ssh/config, the file the installed configuration defers to\n"
                                               + "Run 'hostbook import-ssh-config --take-over' without a FILE.\n"), refused.stderr)
        XCTAssertEqual(text(h.files.dotfile), original, "the user's file is not changed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.files.backup))
    }

    /// A block in an included file is taken over in that file; its backup is hidden, so the
    /// Include's glob does not read the old block back (ssh itself resolves the host through
    /// hostbook's configuration), and restoring gives both files back.
    func testABlockOfAnIncludedFileIsTakenOverWithABackupTheGlobDoesNotRead() throws {
        let h = try makeHome()
        let home = h.files.home
        let folder = home + "/.ssh/conf.d"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let main = "Include \(folder)/*\n\nHost keep\n  HostName keep.example\n"
        let work = "Host build01\n  HostName 10.1.1.1\n"
        try Data(main.utf8).write(to: URL(fileURLWithPath: h.files.dotfile))
        try Data(work.utf8).write(to: URL(fileURLWithPath: folder + "/work"))
        let r = try h.fx.run(["import-ssh-config", "--take-over"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("Commented out 1 Host block in '\(folder)/work' (line 1 before); its text from before is in '\(folder)/.work.hostbook-takeover'"), r.stderr)
        XCTAssertTrue(text(folder + "/work").hasPrefix("# hostbook took over the Host block below on "))
        XCTAssertEqual(text(folder + "/.work.hostbook-takeover"), work)
        XCTAssertEqual(text(h.files.backup), main)
        XCTAssertEqual(try h.fx.run(["ssh-config", "--install"]).status, 0)
        let build = try resolve(h, "build01")
        XCTAssertTrue(build.contains("knownhostscommand ") && build.contains("hostname 10.1.1.1"), build)
        XCTAssertEqual(try h.fx.run(["ssh-config", "--uninstall", "--restore"]).status, 0)
        XCTAssertEqual(text(folder + "/work"), work)
        XCTAssertEqual(text(h.files.dotfile), main)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/.work.hostbook-takeover"))
    }
}
