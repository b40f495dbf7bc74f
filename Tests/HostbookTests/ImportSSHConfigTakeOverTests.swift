// Finishing the move from ~/.ssh/config (issue 34, item 3), with the real binary on a
// terminal: a yes after a plain `import-ssh-config` comments the user's Host blocks out as
// --take-over does. The install's report, --take-over (a symbolic link to a dotfiles file,
// CR LF line endings, mode 0640 all kept; a backup beside it; a block with a pattern
// reported and left; a block in an included file), `ssh -G` resolving through hostbook's
// configuration and `ssh-config --uninstall --restore` run in-process:
// HostbookLogicTests/ImportSSHConfigTakeOverLogicTests.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class ImportSSHConfigTakeOverTests: XCTestCase {
    private let original = TakeOverHome.original

    private struct Home {
        let fx: HostbookFixture
        let files: TakeOverHome
    }

    /// A home whose ~/.ssh/config is a link to dotfiles/ssh_config (CR LF, 0640).
    private func makeHome() throws -> Home {
        let fx = try HostbookFixture()
        let files = try TakeOverHome(in: fx.dir.path)
        fx.environment.merge(files.environment) { $1 }
        return Home(fx: fx, files: files)
    }

    private func bytes(_ path: String) -> [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }
    private func text(_ path: String) -> String { String(decoding: bytes(path), as: UTF8.self) }

    func testAYesOnATerminalAfterThePlainImportTakesOver() throws {
        guard ScriptedTerminal.available else { throw XCTSkip("script(1) is missing") }
        let h = try makeHome()
        let terminal = try ScriptedTerminal(["import-ssh-config"], fixture: h.fx)
        terminal.expect("Comment out your own Host blocks for these hosts ('\(h.files.userConfig)' line 4)")
        terminal.expect("[y/N] ")
        terminal.send("y")
        XCTAssertEqual(terminal.finish(), 0, terminal.transcript)
        XCTAssertTrue(text(h.files.dotfile).contains("#hostbook# Host db\r\n"), text(h.files.dotfile))
        XCTAssertEqual(bytes(h.files.backup), Array(original.utf8))
        // Uninstalling without --restore leaves the blocks commented out, and says how to get them back.
        let uninstall = try h.fx.run(["ssh-config", "--uninstall"])
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertTrue(uninstall.stderr.contains("'hostbook ssh-config --uninstall --restore' gives them back"), uninstall.stderr)
        XCTAssertTrue(text(h.files.dotfile).contains("#hostbook# Host db\r\n"))
        XCTAssertEqual(try h.fx.run(["ssh-config", "--uninstall", "--restore"]).status, 0)
        XCTAssertEqual(bytes(h.files.dotfile), Array(original.utf8))
    }
}
