// Tailscale's RFC 3339 times turned into hostbook's ISO 8601 UTC form.
@testable import ImportFormats
import Foundation
import XCTest

final class RFC3339Tests: XCTestCase {
    func testOffsetsAndFractionsBecomeUTCSeconds() {
        XCTAssertEqual(RFC3339.utc("2026-11-28T07:00:00+02:00"), "2026-11-28T05:00:00Z")
        XCTAssertEqual(RFC3339.utc("2026-11-29T22:14:03.123456789Z"), "2026-11-29T22:14:03Z")
        XCTAssertEqual(RFC3339.utc("2024-02-29T23:30:00-01:00"), "2024-03-01T00:30:00Z")
        XCTAssertEqual(RFC3339.utc("2027-01-01T00:30:00+01:00"), "2026-12-31T23:30:00Z")
        XCTAssertEqual(RFC3339.utc("1970-01-01T00:00:00Z"), "1970-01-01T00:00:00Z")
    }

    func testWhatIsNotRFC3339IsNil() {
        for bad in ["", "2026-11-28", "2026-11-28T07:00:00", "2026-13-01T00:00:00Z", "2026-11-28T07:00:00+0200",
                    "2026-11-28T07:00:00.Z", "2026-11-28T07:00:00Zjunk", "x026-11-28T07:00:00Z"] {
            XCTAssertNil(RFC3339.utc(bad), bad)
        }
    }

    /// The module formats UTC itself (no C call); it must agree with gmtime(3) over the
    /// range Tailscale's times fall in and beyond, at day, leap-year and century edges.
    func testTimestampAgreesWithGmtime() {
        var seconds = 0
        var checked = 0
        while seconds < 8_000_000_000 {
            var t = time_t(seconds)
            var parts = tm()
            gmtime_r(&t, &parts)
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                                  parts.tm_hour, parts.tm_min, parts.tm_sec)
            XCTAssertEqual(RFC3339.timestamp(seconds), expected)
            seconds += 86_399 * 7 + 13
            checked += 1
        }
        XCTAssertGreaterThan(checked, 10_000)
    }
}
