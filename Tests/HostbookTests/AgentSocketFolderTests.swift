// Without XDG_RUNTIME_DIR, the agent's folder is an unpredictable mkdtemp folder in /tmp,
// recorded in the user's own state folder: another local user who makes the old fixed
// name `/tmp/hostbook-UID` first blocks nothing.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class AgentSocketFolderTests: XCTestCase {
    func testAnotherUsersFolderAtTheOldFixedNameBlocksNothing() throws {
        let fx = try HostbookFixture()
        guard let account = fx.account else { throw XCTSkip("needs root, to play the other local user (as CI runs)") }
        // A login without systemd-logind: no XDG_RUNTIME_DIR at all.
        fx.environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        // Another user (root here) takes the name hostbook used to use.
        let squatted = "/tmp/hostbook-\(account.uid)"
        try? FileManager.default.removeItem(atPath: squatted)
        try FileManager.default.createDirectory(atPath: squatted, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: squatted) }

        let start = try fx.run(["agent", "start", "--json"], removing: ["XDG_RUNTIME_DIR"])
        XCTAssertEqual(start.status, 0, start.stderr)
        let started = try JSONSerialization.jsonObject(with: start.stdoutBytes) as? [String: Any] ?? [:]
        let socket = started["socket"] as? String ?? ""
        let folder = (socket as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertTrue(folder.hasPrefix("/tmp/hostbook-") && folder != squatted, socket)
        XCTAssertEqual(folder.count, "/tmp/hostbook-XXXXXXXX".count, socket)
        var info = stat()
        XCTAssertEqual(lstat(folder, &info), 0)
        XCTAssertEqual(info.st_uid, account.uid)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        XCTAssertEqual(try String(contentsOfFile: account.home + "/.local/state/hostbook/socket-folder", encoding: .utf8), folder + "\n")

        // Every later hostbook finds the same agent through the record.
        let status = try fx.run(["agent", "status", "--json"], removing: ["XDG_RUNTIME_DIR"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: status.stdoutBytes) as? [String: Any])?["socket"] as? String, socket)
        XCTAssertEqual(try fx.run(["agent", "stop"], removing: ["XDG_RUNTIME_DIR"]).status, 0)
        XCTAssertEqual(try fx.run(["agent", "status"], removing: ["XDG_RUNTIME_DIR"]).status, 1)

        // A recorded folder that is no longer the user's is not used: a new one is made.
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        let again = try fx.run(["agent", "start", "--json"], removing: ["XDG_RUNTIME_DIR"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let second = ((try JSONSerialization.jsonObject(with: again.stdoutBytes) as? [String: Any])?["socket"] as? String ?? "")
        defer { try? FileManager.default.removeItem(atPath: (second as NSString).deletingLastPathComponent) }
        XCTAssertNotEqual((second as NSString).deletingLastPathComponent, folder)
        XCTAssertEqual(try fx.run(["agent", "stop"], removing: ["XDG_RUNTIME_DIR"]).status, 0)
    }
}
