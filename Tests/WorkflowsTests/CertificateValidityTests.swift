// `ca sign`'s validity window, in-process: durations and RFC 3339 times read as OpenSSH's
// certificates count them (seconds since the epoch), and each refusal a case of KeysRefusal.
import Workflows
import XCTest

final class CertificateValidityTests: XCTestCase {
    func testDurationsAreANumberAndOneUnit() {
        let table: [(String, UInt64?)] = [("90s", 90), ("15m", 900), ("8h", 28_800), ("30d", 2_592_000), ("2w", 1_209_600),
                                          ("8", nil), ("h", nil), ("8x", nil), ("-8h", nil), ("8 h", nil), ("١h", nil),
                                          ("99999999999999999999w", nil), ("3074457345618258603w", nil)]
        for (text, seconds) in table { XCTAssertEqual(CertificateValidity.seconds(text), seconds, text) }
    }

    func testTimesAreRFC3339InUTCOrWithAnOffset() {
        let now: UInt64 = 1_700_000_000
        let table: [(String, UInt64?)] = [
            ("now", now),
            ("1970-01-01T00:00:00Z", 0),
            ("2026-12-07T10:00:00Z", 1_796_637_600),
            ("2026-12-07t10:00:00z", 1_796_637_600),
            ("2026-12-07T12:00:00+02:00", 1_796_637_600),
            ("2026-12-07T05:30:00-04:30", 1_796_637_600),
            ("2026-12-07T10:00:00.250Z", 1_796_637_600),
            ("2026-02-30T10:00:00Z", nil), ("2026-12-07 10:00:00Z", nil), ("2026-12-07T10:00:00", nil),
            ("2026-12-07T24:00:00Z", nil), ("1969-12-31T23:59:59Z", nil), ("2026-12-07T10:00:00+2:00", nil), ("tomorrow", nil),
        ]
        for (text, time) in table { XCTAssertEqual(CertificateValidity.time(text, now: now), time, text) }
        XCTAssertEqual(CertificateValidity.text(1_796_637_600), "2026-12-07T10:00:00Z")
        XCTAssertEqual(CertificateValidity.text(UInt64.max), "forever")
    }

    func testTheWindowIsCheckedAndEachRefusalSaysWhich() throws {
        let now: UInt64 = 1_796_637_600
        let w = try CertificateValidity.window(valid: "8h", from: nil, to: nil, now: now)
        XCTAssertEqual(w.after, now)
        XCTAssertEqual(w.before, now + 28_800)
        let fixed = try CertificateValidity.window(valid: nil, from: "2026-12-07T09:00:00Z", to: "2026-12-07T17:00:00Z", now: 0)
        XCTAssertEqual(fixed.before - fixed.after, 28_800)

        func refusal(_ valid: String?, _ from: String?, _ to: String?) -> KeysRefusal? {
            do { _ = try CertificateValidity.window(valid: valid, from: from, to: to, now: now); return nil } catch { return error }
        }
        guard case .validNotADuration("8") = refusal("8", nil, nil) else { return XCTFail("8") }
        guard case .validOutOfBounds("4s") = refusal("4s", nil, nil) else { return XCTFail("4s") }
        guard case .validOutOfBounds("3651d") = refusal("3651d", nil, nil) else { return XCTFail("3651d") }
        guard case .validFromNotATime("soon") = refusal("8h", "soon", nil) else { return XCTFail("from") }
        guard case .validToNotATime("later") = refusal(nil, nil, "later") else { return XCTFail("to") }
        guard case .validityMissing = refusal(nil, nil, nil) else { return XCTFail("missing") }
        guard case .validAndValidTo = refusal("8h", nil, "now") else { return XCTFail("both") }
        guard case .expiresBeforeValid = refusal(nil, "now", "2026-12-07T09:00:00Z") else { return XCTFail("reversed") }
        guard case .windowOutOfBounds = refusal(nil, "now", "2026-12-07T10:00:03Z") else { return XCTFail("short") }
    }
}
