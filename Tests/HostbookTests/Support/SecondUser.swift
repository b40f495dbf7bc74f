// A second user account for tests of permissions and ownership: made with `useradd` by the
// test (which needs root, as CI runs), removed with `userdel` afterwards. The real hostbook
// binary runs as that user through `setpriv`.
import Foundation
import XCTest

final class SecondUser {
    let name: String
    let uid: UInt32
    let gid: UInt32

    /// Skips the test unless it runs as root (only root can make a user or chown).
    init() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to create a second user account (CI runs as root)") }
        name = "hbt\(getpid())x\(UInt32.random(in: 0..<100_000))"
        let made = try ToolProcess.run(URL(fileURLWithPath: "/usr/sbin/useradd"),
                                       ["--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", "--user-group", name])
        guard made.status == 0 else { throw NSError(domain: "SecondUser", code: 1, userInfo: [NSLocalizedDescriptionKey: "useradd failed: \(made.stderr)"]) }
        guard let pw = getpwnam(name) else { throw NSError(domain: "SecondUser", code: 2) }
        uid = pw.pointee.pw_uid
        gid = pw.pointee.pw_gid
    }

    deinit {
        _ = try? ToolProcess.run(URL(fileURLWithPath: "/usr/sbin/userdel"), [name])
    }

    /// Runs the real hostbook as this user, with a clean environment of its own plus `environment`.
    func hostbook(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> HostbookResult {
        try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                            ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", HostbookProcess.binaryURL.path] + arguments,
                            stdin: stdin.map { Data($0.utf8) },
                            environment: ["HOME": "/nonexistent", "NO_COLOR": "1", "USER": name].merging(environment) { $1 },
                            removing: ["HOSTBOOK_DB", "XDG_DATA_HOME", "DBUS_SESSION_BUS_ADDRESS"])
    }

    func chown(_ path: String) {
        XCTAssertEqual(Glibc.chown(path, uid, gid), 0, "chown \(path)")
    }
}
