// A saved hostname reaches ssh exactly as saved (issue 18): ssh expands `%h` and `%%` in
// HostName, so `fe80::1%eth0` (an IPv6 zone index, which add, edit and import accept) was a
// fatal unknown token and `fe80::1%h` became `fe80::1` + the alias. A real connection
// checks that ssh's KnownHostsCommand gets the saved hostname as %h, and hostbook installed
// in a folder with `%` in its name is written as it is.
// --print-config, the installed configuration read by `ssh -G`, and the rule add and
// import-ssh-config share run in-process:
// HostbookLogicTests/SSHHostNamePercentLogicTests.
import Foundation
import TestSupport
import XCTest

final class SSHHostNamePercentTests: XCTestCase {
    /// A real connection to a host saved as `fe80::1%eth0`: ssh reaches the private sshd
    /// through a ProxyCommand (the address itself is not the server's), and checks its key
    /// with hostbook's KnownHostsCommand, which must get `fe80::1%eth0` as %h to find the key
    /// approved for that name.
    func testKnownHostsCommandGetsTheSavedHostname() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        let port = String(sshd.port)
        try bed.fx.ok("add", "zone", "--hostname", "fe80::1%eth0", "--port", port, "--user", "root", "--key", "k")
        try bed.fx.ok("known-hosts", "approve", "fe80::1%eth0", "--port", port, "--key", try sshd.publicKeyTypeAndBlob(), "--yes")
        // The relay's two cats write nothing to stderr: the one in the background may outlive
        // ssh (ssh ends the proxy it started, not that one's children), and must not hold the
        // test's stderr pipe open until the server gives up on the connection.
        let proxy = "ProxyCommand=/bin/bash -c 'exec 3<>/dev/tcp/127.0.0.1/%p 2>/dev/null; cat <&3 & exec cat >&3'"
        let r = try bed.ssh(["zone", "-o", proxy, "echo connected"])
        XCTAssertEqual(r.status, 0, r.stderr + sshd.log)
        XCTAssertEqual(r.stdout, "connected\n")
    }

    /// hostbook installed in a folder with `%` in its name (issue 23). ssh runs the program
    /// path of KnownHostsCommand as written and expands `%` only in its arguments
    /// (OpenSSH 9.2: `KnownHostsCommand /x/a%%b/prog` runs `/x/a%%b/prog`), so the path is
    /// written as it is: the connection through `hostbook ssh` checks the host key with it,
    /// `ssh -G` names it, and doctor finds the installed configuration in charge.
    func testAProgramPathWithPercentIsWrittenAsItIs() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
        let bed = try SSHTestBed()
        let folder = bed.fx.dir.file("opt%h-100%%")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let exe = folder + "/hostbook"
        try FileManager.default.copyItem(atPath: HostbookProcess.binaryURL.path, toPath: exe)
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        try bed.trust(sshd)

        let printed = try bed.fx.tool(exe, ["ssh", "--print-config", "web"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let line = try XCTUnwrap(printed.stdout.split(separator: "\n").first { $0.contains("KnownHostsCommand ") })
        XCTAssertTrue(line.hasSuffix("KnownHostsCommand \(exe) --db \(bed.fx.db) known-hosts lookup %I %H %h %p %t %K %n"), String(line))

        let connected = try bed.fx.tool(exe, ["ssh", "web", "echo connected"])
        XCTAssertEqual(connected.status, 0, connected.stderr + sshd.log)
        XCTAssertEqual(connected.stdout, "connected\n")

        XCTAssertEqual(try bed.fx.tool(exe, ["ssh-config", "--install"]).status, 0)
        let installed = try String(contentsOfFile: bed.home + "/.config/hostbook/ssh_config", encoding: .utf8)
        let path = bed.fx.dir.file("installed.conf")
        try installed.write(toFile: path, atomically: true, encoding: .utf8)
        let resolved = try bed.fx.tool("/usr/bin/ssh", ["-G", "-F", path, "web"])
        XCTAssertTrue(resolved.stdout.contains("\nknownhostscommand \(exe) --db "), resolved.stdout)
        let doctor = try bed.fx.tool(exe, ["doctor"])
        XCTAssertTrue(doctor.stdout.contains("'ssh -G web' resolves to hostbook's settings"), doctor.stdout + doctor.stderr)
    }
}
