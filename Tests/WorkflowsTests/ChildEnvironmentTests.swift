// The programs a workflow starts are found on the command's PATH and run with the command's
// environment, never with the process's: an in-process command (a test, a standing process)
// hands its own.
import Foundation
import System
import TestSupport
import Workflows
import XCTest

final class ChildEnvironmentTests: XCTestCase {
    /// The process's PATH has ssh-keyscan; the command's names a folder without it.
    func testKeyscanIsLookedUpOnTheCommandsPATH() throws {
        let empty = try TempFolder()
        XCTAssertNotNil(ExecutablePath.find("ssh-keyscan", searchPath: ProcessInfo.processInfo.environment["PATH"]))
        XCTAssertThrowsError(try Keyscan.keys(host: "127.0.0.1", port: 9, timeout: 1, environment: ["PATH": empty.path])) { error in
            guard case KnownHostsRefusal.keyscanNotFound = error else { return XCTFail("\(error)") }
        }
    }

    /// `ssh -G` runs with the command's environment: a `Match exec` block that applies only
    /// when ssh's environment holds a variable the process's does not shows which one it had.
    func testSSHGRunsWithTheCommandsEnvironment() throws {
        let folder = try TempFolder()
        let config = folder.file("config")
        let text = "Match exec \"printenv HOSTBOOK_CHILD_ENV_PROBE\"\n  Port 2345\n"
        XCTAssertNil(ProcessInfo.processInfo.environment["HOSTBOOK_CHILD_ENV_PROBE"])
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                           "HOME": folder.path, "HOSTBOOK_CHILD_ENV_PROBE": "/the-commands-own"]
        let resolved = SSHResolvedConfig.sshG(config: config, name: "probe", environment: environment)
        XCTAssertTrue(resolved.contains("\nport 2345\n"), resolved)
        let probed = try XCTUnwrap(SSHResolvedConfig.sshG(probe: Array(text.utf8), name: "probe", environment: environment))
        XCTAssertTrue(probed.contains("\nport 2345\n"), probed)
    }
}
