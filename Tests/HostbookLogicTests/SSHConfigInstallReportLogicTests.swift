// `hostbook ssh-config --install` and `--uninstall` in-process (InProcessCommand): what
// they say on stdout and stderr, and the hint to start the agent only while none answers
// at the socket the configuration names (the standing agent started from the built
// binary). The agent against real ssh-add, ssh and sshd: HostbookTests/AgentCommandTests.
import Foundation
@testable import hostbook
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class SSHConfigInstallReportLogicTests: XCTestCase {
    var fx: InProcessCommand!
    var home: String { fx.environment["HOME"] ?? "" }

    override func setUpWithError() throws {
        fx = try InProcessCommand()
        try fx.privateRuntimeFolder()
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() {
        fx?.stopAgent()
        fx = nil
    }

    /// `ssh-config --install` says what it did on stdout (warnings and errors stay on
    /// stderr), and says how to start the agent only while none answers at the socket the
    /// configuration names (issue 23).
    func testSSHConfigInstallReportsOnStdoutAndNamesTheAgentOnlyWhenItIsNotRunning() throws {
        try fx.ok("add", "web", "--hostname", "127.0.0.1")
        let generated = home + "/.config/hostbook/ssh_config"
        let userConfig = home + "/.ssh/config"
        let startHint = "Start the agent with 'eval \"$(hostbook agent start)\"', or 'systemctl --user enable --now hostbook-agent.service'.\n"

        let first = try fx.run(["ssh-config", "--install"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stderr, "")
        XCTAssertEqual(first.stdout, "Wrote \(generated) and included it from the top of \(userConfig).\n" + startHint)

        try fx.startAgent()
        defer { fx.stopAgent() }
        let again = try fx.run(["ssh-config", "--install"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "")
        XCTAssertEqual(again.stdout, "Wrote \(generated); \(userConfig) already includes it.\n")

        XCTAssertEqual(try fx.binary(["agent", "stop"]).status, 0)
        let stopped = try fx.run(["ssh-config", "--install"])
        XCTAssertEqual(stopped.stdout, "Wrote \(generated); \(userConfig) already includes it.\n" + startHint)

        let removed = try fx.run(["ssh-config", "--uninstall"])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(removed.stderr, "")
        XCTAssertEqual(removed.stdout, "Removed the Include line from \(userConfig) and \(generated).\n")
        // A warning still goes to stderr: a host the user's own config defines is left out.
        try Data("Host web\n    User me\n".utf8).write(to: URL(fileURLWithPath: userConfig))
        chmod(userConfig, 0o644)
        let withWarning = try fx.run(["ssh-config", "--install"])
        XCTAssertEqual(withWarning.status, 0, withWarning.stderr)
        XCTAssertTrue(withWarning.stderr.hasPrefix("hostbook: warning: skipped host 'web': "), withWarning.stderr)
        XCTAssertEqual(withWarning.stdout, "Wrote \(generated) and included it from the top of \(userConfig).\n" + startHint)
        XCTAssertEqual(try fx.run(["ssh-config", "--uninstall"]).status, 0)
    }
}
