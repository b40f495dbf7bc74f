// `list --json` and `show --json` agree for every host, in-process (InProcessCommand runs
// Hostbook.main on a real SQLite file that sqlite3 also writes). Moved from
// HostbookTests/HostCommandTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

/// `list --json` is rendered by a streaming writer (for speed); `show --json` by JSONValue.
/// Both must print the same text for every host, whatever bytes another writer (an
/// importer, sqlite3) left in the fields.
final class HostListJSONTests: XCTestCase {
    func testListJSONIsTheShowObjectsInAnArray() throws {
        let hb = try InProcessCommand()
        try hb.ok("add", "plain", "--hostname", "p.example", "--tag", "t1", "--tag", "t2", "--user", "me", "--port", "2")
        try hb.ok("add", "bare", "--hostname", "::1")
        let inserted = try Tool.run("/bin/sh", ["-c", """
            sqlite3 "$DBFILE" "INSERT INTO hosts(uuid, name, hostname, port, user, auth, note, source, source_id, created_at, updated_at)
              VALUES ('u-odd', 'odd', 'o.example', 22, 'q\\"u', 'none',
                      'a\\"b\\\\c' || char(10) || char(133) || char(8232) || char(8233) || char(127) || char(1) || char(9) || char(13) || '€ ✓',
                      'tailscale', 'n' || char(159), 'x', 'y');
              INSERT INTO hosts(uuid, name, hostname, port, auth, note, source, created_at, updated_at)
              VALUES ('u-bad', 'bad', 'b.example', 22, 'agent', CAST(x'41ff42c2' AS TEXT), 'manual', 'x', 'y');
              INSERT INTO host_tags VALUES ((SELECT id FROM hosts WHERE name = 'odd'), 'T' || char(8232));"
            """], environment: ProcessInfo.processInfo.environment.merging(["DBFILE": hb.db]) { $1 })
        XCTAssertEqual(inserted.status, 0, inserted.stderr)
        let list = try hb.ok("list", "--json").stdout
        var objects: [String] = []
        for name in ["bad", "bare", "odd", "plain"] {
            let show = try hb.ok("show", name, "--json").stdout
            objects.append(show.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
        }
        XCTAssertEqual(list, "[\n" + objects.joined(separator: ",\n") + "\n]\n")
        XCTAssertTrue(list.contains(#""note": "a\"b\\c\n\u0085\u2028\u2029\u007f\u0001\t\r€ ✓""#), list)
        XCTAssertTrue(list.contains("\"note\": \"A\u{FFFD}B\u{FFFD}\""), list)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(list.utf8)))
    }
}
