// `hostbook agent upstream add SOCKET` in-process (InProcessCommand): a path that is not a
// socket now is saved all the same (the agent there may start later) with a warning on
// stderr; a socket is saved without one. Every socket path a command is given (`--socket`,
// `--upstream`, SOCKET) is held to one rule: not empty, short enough for a Unix socket.
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import hostbook
import System
import XCTest

final class AgentUpstreamAddLogicTests: XCTestCase {
    var fx: InProcessCommand!

    override func setUpWithError() throws {
        fx = try InProcessCommand()
        fx.environment["XDG_RUNTIME_DIR"] = fx.folder.file("run")
    }

    func testAPathThatIsNotASocketIsSavedWithAWarning() throws {
        let path = fx.folder.file("later.sock")
        let added = try fx.call(["agent", "upstream", "add", path])
        XCTAssertEqual(added.status, 0, "\(added)")
        XCTAssertEqual(added.stdout, "Saved the upstream agent \(path)\n")
        XCTAssertEqual(added.stderr, "hostbook: warning: \(path) is not a socket now; saved all the same: it is asked once an agent listens there\n")
        let listed = try fx.call(["agent", "upstream", "list", "--json"])
        XCTAssertTrue(listed.stdout.contains("\"socket\": \"\(path)\""), "\(listed)")

        // A regular file there is no socket either.
        let file = fx.folder.file("plain")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        XCTAssertEqual(try fx.call(["agent", "upstream", "add", file]).stderr,
                       "hostbook: warning: \(file) is not a socket now; saved all the same: it is asked once an agent listens there\n")
    }

    func testASocketIsSavedWithoutAWord() throws {
        let path = fx.folder.file("agent.sock")
        let fd = try UnixSocket.listen(at: path)
        defer { close(fd) }
        let added = try fx.call(["agent", "upstream", "add", path])
        XCTAssertEqual(added.status, 0, "\(added)")
        XCTAssertEqual(added.stderr, "")
        XCTAssertEqual(added.stdout, "Saved the upstream agent \(path)\n")
    }

    func testEverySocketPathGivenIsHeldToOneRule() throws {
        let long = "/" + String(repeating: "s", count: 200)
        for (argv, option) in [(["agent", "status", "--socket"], "--socket"), (["agent", "start", "--upstream"], "--upstream"),
                               (["agent", "upstream", "add"], "SOCKET"), (["keys", "import-agent"], "SOCKET")] {
            let empty = try fx.call(argv + [""])
            XCTAssertEqual(empty.status, 2, "\(argv) \(empty)")
            XCTAssertEqual(empty.stderr, "hostbook: \(option) needs a socket path\n", "\(argv)")
            let tooLong = try fx.call(argv + [long])
            XCTAssertEqual(tooLong.status, 2, "\(argv) \(tooLong)")
            XCTAssertEqual(tooLong.stderr, "hostbook: the socket path \(long) is longer than \(PrivateSocketDirectory.maxSocketPath) bytes\n", "\(argv)")
        }
        XCTAssertEqual(try fx.call(["agent", "upstream", "list", "--json"]).stdout.contains("sss"), false, "nothing refused was saved")
    }
}
