// Which session bus hostbook takes when the environment names none (HeadlessBus): only a
// socket of this user in hostbook's private folder, never through a link, never when the
// environment names a bus of its own. No D-Bus is needed: the rule reads the file system.
import Foundation
import System
import Vault
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class HeadlessBusTests: XCTestCase {
    var temp: TempFolder!
    var runtime = ""
    var listeners: [Int32] = []

    override func setUpWithError() throws {
        temp = try TempFolder()
        runtime = temp.path
    }

    override func tearDownWithError() throws {
        for fd in listeners { close(fd) }
        temp = nil
    }

    var environment: [String: String] { ["XDG_RUNTIME_DIR": runtime, "HOME": runtime + "/home"] }

    /// A listening socket at `path`.
    func listen(_ path: String) throws {
        listeners.append(try UnixSocket.listen(at: path))
    }

    /// $XDG_RUNTIME_DIR/hostbook (0700) with a socket `bus` in it; its path.
    func privateBus() throws -> String {
        XCTAssertEqual(mkdir(runtime + "/hostbook", 0o700), 0)
        let socket = runtime + "/hostbook/bus"
        try listen(socket)
        return socket
    }

    /// The bus is picked (setenv) once per process, at the program's start; a later call
    /// changes nothing, so no setenv can race with another thread's getenv.
    func testTheBusIsPickedOnce() {
        VaultClient.pickSessionBusAtStartup()
        let before = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
        XCTAssertFalse(VaultClient.pickSessionBusAtStartup())
        XCTAssertFalse(VaultClient.pickSessionBusAtStartup())
        XCTAssertEqual(getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }, before)
    }

    func testNoSocketNoBus() {
        XCTAssertNil(HeadlessBus.addressForClients(environment: environment))
        XCTAssertFalse(HeadlessBus.namesOtherBus(environment: environment))
    }

    func testASocketOfThisUserInThePrivateFolderIsTheBus() throws {
        let socket = try privateBus()
        XCTAssertEqual(HeadlessBus.addressForClients(environment: environment), "unix:path=" + socket)
        XCTAssertEqual(HeadlessBus.existingSocket(environment: environment), socket)
        XCTAssertTrue(HeadlessBus.isHeadless(address: "unix:path=" + socket, environment: environment))
        XCTAssertFalse(HeadlessBus.namesOtherBus(environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + socket]) { $1 }))
    }

    func testABusTheEnvironmentNamesWins() throws {
        _ = try privateBus()
        let named = environment.merging(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/other"]) { $1 }
        XCTAssertNil(HeadlessBus.addressForClients(environment: named))
        XCTAssertTrue(HeadlessBus.namesOtherBus(environment: named))
        // $XDG_RUNTIME_DIR/bus, the systemd user bus, is a bus the environment names too.
        try listen(runtime + "/bus")
        XCTAssertNil(HeadlessBus.addressForClients(environment: environment))
        XCTAssertTrue(HeadlessBus.namesOtherBus(environment: environment))
    }

    func testAFolderOthersCanEnterIsNotUsed() throws {
        _ = try privateBus()
        XCTAssertEqual(chmod(runtime + "/hostbook", 0o755), 0)
        XCTAssertNil(HeadlessBus.addressForClients(environment: environment))
    }

    func testLinksAreNotFollowed() throws {
        // The folder a link to a private folder with a socket in it.
        let elsewhere = runtime + "/elsewhere"
        XCTAssertEqual(mkdir(elsewhere, 0o700), 0)
        try listen(elsewhere + "/bus")
        XCTAssertEqual(symlink(elsewhere, runtime + "/hostbook"), 0)
        XCTAssertNil(HeadlessBus.addressForClients(environment: environment))
        // The socket a link to a socket.
        XCTAssertEqual(unlink(runtime + "/hostbook"), 0)
        XCTAssertEqual(mkdir(runtime + "/hostbook", 0o700), 0)
        XCTAssertEqual(symlink(elsewhere + "/bus", runtime + "/hostbook/bus"), 0)
        XCTAssertNil(HeadlessBus.addressForClients(environment: environment))
    }

    func testAFileThatIsNotASocketIsNotUsed() throws {
        XCTAssertEqual(mkdir(runtime + "/hostbook", 0o700), 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: runtime + "/hostbook/bus", contents: Data()))
        XCTAssertNil(HeadlessBus.addressForClients(environment: environment))
    }

    func testTheAddressIsEscaped() {
        XCTAssertEqual(HeadlessBus.address(ofSocket: "/tmp/a b,c;d=é/bus"), "unix:path=/tmp/a%20b%2cc%3bd%3d%c3%a9/bus")
        XCTAssertEqual(HeadlessBus.address(ofSocket: "/run/user/1000/hostbook/bus"), "unix:path=/run/user/1000/hostbook/bus")
    }
}
