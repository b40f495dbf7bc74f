// In-process (InProcessCommand runs Hostbook.main; was run on the binary).
// What Tailscale said about a device (OS, online state, last seen, owner) is in `show`,
// `show --json` and `list --json`, read back from the last import; null for other hosts.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class TailscaleShowTests: XCTestCase {
    func testShowAndListCarryTheTailscaleDetails() throws {
        let hb = try InProcessCommand()
        let file = PackageRoot.path + "/testdata/tailscale/status-rotation-after.json"
        try hb.ok("import-tailscale", file, "--all")
        try hb.ok("add", "web", "--hostname", "web.test")

        // cache01: offline, last seen at 07:00 +02:00 (05:00 UTC).
        let cache = try XCTUnwrap(try hb.json("show", "cache01") as? [String: Any])
        let details = try XCTUnwrap(cache["tailscale"] as? [String: Any])
        XCTAssertEqual(details["os"] as? String, "linux")
        XCTAssertEqual(details["online"] as? Bool, false)
        XCTAssertEqual(details["last_seen"] as? String, "2026-11-28T05:00:00Z")
        XCTAssertEqual(details["owner"] as? String, "dana@example.org")
        // build01: online (no last-seen time), owned by a person.
        let build = try XCTUnwrap((try hb.json("show", "build01") as? [String: Any])?["tailscale"] as? [String: Any])
        XCTAssertEqual(build["online"] as? Bool, true)
        XCTAssertTrue(build["last_seen"] is NSNull)
        XCTAssertEqual(build["owner"] as? String, "dana@example.org")
        XCTAssertTrue((try hb.json("show", "web") as? [String: Any])?["tailscale"] is NSNull)

        // list --json (streamed) says the same as show --json for every host.
        let list = try XCTUnwrap(try hb.json("list") as? [[String: Any]])
        XCTAssertEqual(list.count, 3)
        for host in list {
            let name = try XCTUnwrap(host["name"] as? String)
            let one = try XCTUnwrap(try hb.json("show", name) as? [String: Any])
            XCTAssertEqual(try JSONSerialization.data(withJSONObject: host, options: .sortedKeys),
                           try JSONSerialization.data(withJSONObject: one, options: .sortedKeys), name)
        }

        let text = try hb.ok("show", "cache01").stdout
        for line in ["os:        linux", "online:    no", "last seen: 2026-11-28T05:00:00Z", "owner:     dana@example.org"] {
            XCTAssertTrue(text.contains("\n" + line + "\n"), "\(line) in\n\(text)")
        }
        XCTAssertTrue(try hb.ok("show", "build01").stdout.contains("\nlast seen: now (online)\n"))
        XCTAssertFalse(try hb.ok("show", "web").stdout.contains("online:"))
    }
}
