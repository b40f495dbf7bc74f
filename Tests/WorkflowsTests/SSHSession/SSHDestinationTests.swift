// Which host and user `hostbook ssh` connects with (Workflows' SSHDestination), read as ssh
// reads its destination: -l before HOST wins over USER@, a user among ssh's own options after
// HOST wins over both, the last `@` splits, and a user ssh would read as an option is refused.
import HostStore
import Workflows
import XCTest

final class SSHDestinationTests: XCTestCase {
    func testTheUserComesFromTheArgumentsThenDashLThenTheDestination() throws {
        func resolve(_ given: String, _ user: String?, _ arguments: [String] = []) throws -> [String?] {
            let (name, resolved) = try SSHDestination.resolve(given, user: user, sshArguments: arguments)
            return [name, resolved]
        }
        XCTAssertEqual(try resolve("web", nil), ["web", nil])
        XCTAssertEqual(try resolve("ops@web", nil), ["web", "ops"])
        XCTAssertEqual(try resolve("a@b@web", nil), ["web", "a@b"], "the last @ splits, as ssh's strrchr")
        XCTAssertEqual(try resolve("ops@web", "root"), ["web", "root"], "-l before HOST wins over USER@")
        XCTAssertEqual(try resolve("ops@web", "root", ["-l", "deploy", "uptime"]), ["web", "deploy"], "ssh's own -l after HOST wins")
        XCTAssertEqual(try resolve("web", nil, ["-o", "User=deploy"]), ["web", "deploy"])
    }

    func testAUserSshWouldReadAsAnOptionIsRefused() {
        XCTAssertThrowsError(try SSHDestination.resolve("-oProxyCommand=x@web", user: nil, sshArguments: [])) { error in
            XCTAssertTrue(error is HostStoreError, "\(error)")
        }
    }
}
