// A key's approval settings (`hostbook keys edit --confirm/--grant`) in-process
// (InProcessCommand): stored and shown by `keys show` and `keys list`, kept across a
// rename, and bad input changing nothing. What the standing agent does with them, against
// real ssh and a private sshd: HostbookTests/AgentApprovalTests.
import Foundation
@testable import hostbook
import XCTest

final class AgentApprovalSettingsLogicTests: XCTestCase {
    var fx: InProcessCommand!

    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "needs a Secret Service (scripts/with-keyring)")
        fx = try InProcessCommand()
    }

    override func tearDown() { fx = nil }

    /// Key ck (made by ssh-keygen, imported) and host web that logs in with it, as
    /// AgentApprovalTests' bed has them.
    private func ckAndWeb() throws {
        let path = fx.dir.file("ck-key")
        XCTAssertEqual(try fx.tool("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "ck", "-f", path]).status, 0)
        XCTAssertEqual(try fx.run(["keys", "import", path, "--name", "ck"]).status, 0)
        try FileManager.default.removeItem(atPath: path)
        try fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", "2222", "--user", "root", "--key", "ck")
    }

    func testKeysEditConfirmAndGrantAreStoredAndShown() throws {
        try ckAndWeb()
        var shown = try fx.json("keys", "show", "ck") as? [String: Any] ?? [:]
        XCTAssertEqual(shown["confirm"] as? Bool, false)
        XCTAssertTrue(shown["grant_seconds"] is NSNull)
        try fx.ok("keys", "edit", "ck", "--confirm", "--grant", "10m", "--comment", "laptop")
        shown = try fx.json("keys", "show", "ck") as? [String: Any] ?? [:]
        XCTAssertEqual(shown["confirm"] as? Bool, true)
        XCTAssertEqual(shown["grant_seconds"] as? Int, 600)
        XCTAssertEqual(shown["comment"] as? String, "laptop")
        let listed = try fx.json("keys", "list") as? [[String: Any]] ?? []
        XCTAssertEqual(listed.first?["confirm"] as? Bool, true)
        let text = try fx.ok("keys", "show", "ck").stdout
        XCTAssertTrue(text.contains("confirm:      yes"), text)
        XCTAssertTrue(text.contains("grant:        10m"), text)

        // Renamed: the host keeps its key; the old name is gone.
        try fx.ok("keys", "edit", "ck", "--rename", "ck2", "--no-grant", "--no-confirm")
        XCTAssertEqual((try fx.json("show", "web") as? [String: Any])?["key"] as? String, "ck2")
        shown = try fx.json("keys", "show", "ck2") as? [String: Any] ?? [:]
        XCTAssertEqual(shown["confirm"] as? Bool, false)
        XCTAssertTrue(shown["grant_seconds"] is NSNull)
        XCTAssertEqual(try fx.run(["keys", "show", "ck"]).status, 4)

        // Bad input changes nothing, with the documented exit codes.
        for (args, status) in [(["keys", "edit", "ck2"], 2), (["keys", "edit", "ck2", "--grant", "10x"], 2),
                               (["keys", "edit", "ck2", "--grant", "0s"], 2), (["keys", "edit", "ck2", "--grant", "25h"], 2),
                               (["keys", "edit", "ck2", "--confirm", "--no-confirm"], 2), (["keys", "edit", "nope", "--confirm"], 4),
                               (["keys", "edit", "ck2", "--rename", " bad"], 5)] {
            let r = try fx.run(args)
            XCTAssertEqual(r.status, Int32(status), "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("hostbook: "), r.stderr)
        }
        let path = fx.dir.file("other-key")
        XCTAssertEqual(try fx.tool("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "o", "-f", path]).status, 0)
        try fx.ok("keys", "import", path, "--name", "other")
        let taken = try fx.run(["keys", "edit", "ck2", "--rename", "OTHER"])
        XCTAssertEqual(taken.status, 5, taken.stderr)
        XCTAssertTrue(taken.stderr.contains("--rename"), taken.stderr)
        XCTAssertEqual((try fx.json("keys", "show", "ck2") as? [String: Any])?["confirm"] as? Bool, false)
    }
}
