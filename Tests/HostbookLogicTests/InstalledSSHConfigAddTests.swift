// `hostbook add` with the ssh configuration installed writes the new host's own file in
// `added/` and nothing else (issue 22: adding must not grow with the number of saved
// hosts). Counted, not timed: the files each add creates or replaces, and their bytes. The
// oracle for what the files mean is the real `ssh -G`; doctor compares them with what a
// whole rewrite would write. In-process (InProcessCommand runs Hostbook.main, the real
// Secret Service). Moved from HostbookTests/InstalledSSHConfigAddTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class InstalledSSHConfigAddTests: XCTestCase {
    /// hostbook in-process with a home and a runtime folder of its own, and keys imported
    /// into the vault.
    struct Bed {
        let fx: InProcessCommand
        var home: String { fx.dir.file("home") }
        var runtime: String { fx.dir.file("run") }

        init() throws {
            fx = try InProcessCommand()
            try FileManager.default.createDirectory(atPath: fx.dir.file("home/.ssh"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.createDirectory(atPath: fx.dir.file("run"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            fx.environment["XDG_RUNTIME_DIR"] = fx.dir.file("run")
        }

        func importKey(_ name: String) throws {
            let path = fx.dir.file("\(name)-key")
            XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "correct horse", "-C", name, "-f", path]).status, 0)
            try fx.ok("keys", "import", path, "--name", name, "--passphrase-stdin", stdin: "correct horse")
        }
    }

    /// path → (inode, size) of every file under the installed folder.
    private func files(_ folder: String) throws -> [String: (ino: UInt64, size: Int)] {
        var out: [String: (UInt64, Int)] = [:]
        for name in FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [] {
            let a = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            guard a[.type] as? FileAttributeType == .typeRegular else { continue }
            out[name] = ((a[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0, (a[.size] as? NSNumber)?.intValue ?? 0)
        }
        return out
    }

    func testAddWritesOnlyTheNewHostsFileWhateverTheNumberOfHosts() throws {
        let bed = try Bed()
        let ssh = bed.home + "/.ssh"
        let userConfig = ssh + "/config"
        try Data("Host mine\n    HostName mine.example\n".utf8).write(to: URL(fileURLWithPath: userConfig))
        chmod(userConfig, 0o600)
        try bed.importKey("deploy")
        try bed.fx.ok("add", "bastion", "--hostname", "10.0.0.1", "--key", "deploy")
        for i in 0..<3 { try bed.fx.ok("add", "old-\(i)", "--hostname", "10.0.1.\(i)") }
        XCTAssertEqual(try bed.fx.run(["ssh-config", "--install"]).status, 0)
        let folder = bed.home + "/.config/hostbook"
        let generated = folder + "/ssh_config"
        func resolve(_ name: String) throws -> String {
            let r = try bed.fx.tool("/usr/bin/ssh", ["-F", userConfig, "-G", name])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout
        }

        // Each add: one new file in added/, the same size whatever the number of hosts
        // before it (the hostnames all have the same length); the generated file untouched.
        // The 64th file makes the next add write the whole file and empty the folder.
        var sizes: Set<Int> = []
        var wholeRewrites = 0
        for i in 0..<70 {
            let before = try files(folder)
            let added = try bed.fx.run(["add", "new-\(1000 + i)", "--hostname", "10.2.\(100 + i % 100).100", "--jump", "bastion"])
            XCTAssertEqual(added.status, 0, added.stderr)
            XCTAssertEqual(added.stderr, "")
            let after = try files(folder)
            let written = after.filter { before[$0.key]?.ino != $0.value.ino }.map(\.key).sorted()
            let addedBefore = before.keys.filter { $0.hasPrefix("added/") }.count
            if addedBefore < 64 {
                XCTAssertEqual(written.count, 1, "add \(i): \(written)")
                XCTAssertTrue(written.first?.hasPrefix("added/") == true, "add \(i): \(written)")
                XCTAssertEqual(after["ssh_config"]?.ino,
                               before["ssh_config"]?.ino, "add \(i) left the generated file alone")
                sizes.insert(after[written[0]]!.size)
            } else {
                wholeRewrites += 1
                XCTAssertEqual(written, ["ssh_config"], "add \(i)")
                XCTAssertFalse(after.keys.contains { $0.hasPrefix("added/") }, "the whole file holds every host")
            }
        }
        XCTAssertEqual(wholeRewrites, 1)
        XCTAssertEqual(sizes.count, 1, "every added file has the same size: \(sizes)")
        XCTAssertLessThan(sizes.first ?? 0, 1024)

        // ssh reads the added hosts as the whole file's.
        let late = try resolve("new-1069")
        XCTAssertTrue(late.contains("\nhostname 10.2.169.100\n"), late)
        XCTAssertTrue(late.contains("\nproxyjump bastion\n"), late)
        XCTAssertTrue(late.contains("\nknownhostscommand "), late)
        XCTAssertTrue(late.contains("\nidentityagent \(bed.runtime)/hostbook/agent.sock\n"), late)
        XCTAssertTrue(try resolve("new-1000").contains("\nhostname 10.2.100.100\n"))
        XCTAssertTrue(try resolve("bastion").contains("\nidentitiesonly yes\n"))

        // doctor: the file and added/ together are what a whole rewrite would write.
        let doctor = try bed.fx.run(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("\(generated) is current"), doctor.stdout)

        // A name of the user's own Host block: nothing written, the clash told as before;
        // a host jumping through it is left out, and said so by doctor.
        var before = try files(folder)
        let clash = try bed.fx.run(["add", "mine", "--hostname", "10.3.0.1"])
        XCTAssertEqual(clash.status, 0, clash.stderr)
        XCTAssertEqual(clash.stderr, "hostbook: warning: skipped host 'mine': '\(userConfig)' line 2 has your own Host block for it, which hostbook leaves in charge\n")
        try bed.fx.ok("add", "behind-mine", "--hostname", "10.3.0.2", "--jump", "mine")
        XCTAssertEqual(try files(folder).filter { before[$0.key]?.ino != $0.value.ino }.count, 0, "nothing written for either")
        XCTAssertTrue(try resolve("mine").contains("\nhostname mine.example\n"))
        XCTAssertTrue(try bed.fx.run(["doctor"]).stdout.contains("\(generated) is current"))

        // A new key's public file is written with the host that first uses it.
        try bed.importKey("second")
        before = try files(folder)
        try bed.fx.ok("add", "with-key", "--hostname", "10.4.0.1", "--key", "second")
        XCTAssertEqual(try files(folder).filter { before[$0.key]?.ino != $0.value.ino }.map(\.key).filter { !$0.hasPrefix("added/") }, ["keys/second.pub"])
        XCTAssertTrue(try resolve("with-key").contains("\nidentityfile \(folder)/keys/second\n"), "the public key file without .pub (ssh reads PATH.pub)")

        // Any other change writes the whole file, which then holds every host.
        try bed.fx.ok("edit", "new-1069", "--hostname", "10.9.9.9")
        XCTAssertFalse(try files(folder).keys.contains { $0.hasPrefix("added/") })
        XCTAssertTrue(try resolve("new-1069").contains("\nhostname 10.9.9.9\n"))
        XCTAssertTrue(try resolve("with-key").contains("\nhostname 10.4.0.1\n"))
        XCTAssertTrue(try bed.fx.run(["doctor"]).stdout.contains("\(generated) is current"))

        // Uninstalling removes the folder too.
        try bed.fx.ok("add", "last", "--hostname", "10.5.0.1")
        XCTAssertEqual(try bed.fx.run(["ssh-config", "--uninstall"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/added"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: generated))
    }

    /// A file installed by an earlier version (no Include of `added/` at its end) is
    /// written whole by the next add, and from then on adds go to `added/`.
    func testAFileWithoutTheAddedIncludeIsWrittenWhole() throws {
        let bed = try Bed()
        try bed.fx.ok("add", "one", "--hostname", "10.0.0.1")
        XCTAssertEqual(try bed.fx.run(["ssh-config", "--install"]).status, 0)
        let generated = bed.home + "/.config/hostbook/ssh_config"
        let old = try bed.fx.ok("ssh-config").stdout
        try Data(old.utf8).write(to: URL(fileURLWithPath: generated))
        try bed.fx.ok("add", "two", "--hostname", "10.0.0.2")
        let text = try String(contentsOfFile: generated, encoding: .utf8)
        XCTAssertTrue(text.contains("Host two\n"), text)
        XCTAssertTrue(text.hasSuffix("\nMatch all\nInclude \(bed.home)/.config/hostbook/added/*.conf\n"), text)
        try bed.fx.ok("add", "three", "--hostname", "10.0.0.3")
        XCTAssertFalse(try String(contentsOfFile: generated, encoding: .utf8).contains("Host three\n"))
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: bed.home + "/.config/hostbook/added"))?.count, 1)
    }
}
