// In-process (InProcessCommand runs Hostbook.main; moved from
// HostbookTests/SSHConfigSymlinkTests): a ~/.ssh/config kept as a symbolic link (a dotfile
// manager's) stays a link through `ssh-config --install` and `--uninstall`: the end of the link chain is rewritten
// in its own folder, with its mode; a link hostbook cannot write through is refused with
// nothing changed.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class SSHConfigSymlinkTests: XCTestCase {
    let original = Data("# managed by my dotfiles\nHost *\n    ServerAliveInterval 30\n".utf8)

    /// The fixture, its home, and ~/.ssh made.
    func makeHome() throws -> (InProcessCommand, String) {
        let fx = try InProcessCommand()
        let home = fx.dir.file("home")
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: home + "/dotfiles", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        fx.environment["HOME"] = home
        try FileManager.default.createDirectory(atPath: fx.dir.file("run"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        fx.environment["XDG_RUNTIME_DIR"] = fx.dir.file("run")
        fx.environment.removeValue(forKey: "XDG_CONFIG_HOME")
        return (fx, home)
    }

    func linkDestination(_ path: String) throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: path)
    }

    func testInstallAndUninstallWriteThroughAChainOfLinks() throws {
        let (fx, home) = try makeHome()
        let link = home + "/.ssh/config"
        let middle = home + "/dotfiles/current"
        let target = home + "/dotfiles/ssh_config"
        try original.write(to: URL(fileURLWithPath: target))
        chmod(target, 0o640)
        try FileManager.default.createSymbolicLink(atPath: middle, withDestinationPath: "ssh_config")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../dotfiles/current")
        try fx.ok("add", "web", "--hostname", "web.example")

        let install = try fx.run(["ssh-config", "--install"])
        XCTAssertEqual(install.status, 0, install.stderr)
        let generated = home + "/.config/hostbook/ssh_config"
        XCTAssertEqual(try linkDestination(link), "../dotfiles/current", "the link stays a link to the same place")
        XCTAssertEqual(try linkDestination(middle), "ssh_config")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), Data("Include \(generated)\n".utf8) + original)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int, 0o640, "the target keeps its mode")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: link + ".hostbook-backup")), original)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home + "/dotfiles").sorted(), ["current", "ssh_config"], "no temporary file left")

        let resolved = try fx.tool("/usr/bin/ssh", ["-F", link, "-G", "web"])
        XCTAssertEqual(resolved.status, 0, resolved.stderr)
        XCTAssertTrue(resolved.stdout.contains("\nhostname web.example\n"), resolved.stdout)
        XCTAssertTrue(resolved.stdout.contains("\nserveraliveinterval 30\n"), resolved.stdout)

        let again = try fx.run(["ssh-config", "--install"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), Data("Include \(generated)\n".utf8) + original, "installing twice changes nothing")

        let uninstall = try fx.run(["ssh-config", "--uninstall"])
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertEqual(try linkDestination(link), "../dotfiles/current")
        XCTAssertEqual(try linkDestination(middle), "ssh_config")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), original, "restored byte for byte")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int, 0o640)
        XCTAssertFalse(FileManager.default.fileExists(atPath: generated))
    }

    /// A link to nothing, to a folder or to a FIFO: one error line and its hint, nothing written.
    func testALinkThatCannotBeWrittenThroughIsRefused() throws {
        let (fx, home) = try makeHome()
        let link = home + "/.ssh/config"
        try FileManager.default.createDirectory(atPath: home + "/dotfiles/folder", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(home + "/dotfiles/fifo", 0o600), 0)
        try fx.ok("add", "web", "--hostname", "web.example")
        let cases = [
            ("../dotfiles/missing", "which does not exist"),
            ("../dotfiles/folder", "which is a folder"),
            ("../dotfiles/fifo", "which is not a regular file"),
        ]
        for (destination, why) in cases {
            try? FileManager.default.removeItem(atPath: link)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: destination)
            try fx.fails(["ssh-config", "--install"], status: 1, stderr: """
                hostbook: '\(link)' is a symbolic link to '\(home)/.ssh/\(destination)', \(why)
                Point it at a regular file you can write, or replace it with one; nothing was changed.

                """)
            XCTAssertEqual(try linkDestination(link), destination)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home + "/.ssh"), ["config"], "no backup, no temporary file")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home + "/dotfiles").sorted(), ["fifo", "folder"])
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home + "/dotfiles/folder"), [])
            XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/.config/hostbook"), "no generated file")
        }
    }
}
