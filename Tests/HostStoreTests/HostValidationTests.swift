// The rules for host fields, as tables of accepted and refused values.
@testable import HostStore
import XCTest

final class HostValidationTests: XCTestCase {
    func testNames() {
        for ok in ["a", "web-1", "db.prod_2", String(repeating: "x", count: 64), "A.B-c_D"] {
            XCTAssertNoThrow(try HostValidation.name(ok), ok)
        }
        for bad in ["", String(repeating: "x", count: 65), "has space", "semi;colon", "é", "a/b", "a@b"] {
            XCTAssertThrowsError(try HostValidation.name(bad), bad) { e in
                XCTAssertEqual((e as? HostStoreError)?.message, "invalid host name '\(bad)': use 1 to 64 letters, digits, '.', '_' or '-'")
            }
        }
    }

    func testHostnames() {
        for ok in ["example.com", "example.com.", "a", "xn--bcher-kva.example", "10.0.0.1", "255.255.255.255", "0.0.0.0",
                   "::1", "fe80::1%eth0", "2001:db8::8a2e:370:7334", "::ffff:192.0.2.1", "1a.example", "3com.com",
                   String(repeating: "a", count: 63) + ".com",
                   // ssh and the resolver accept `_` in names, so hostbook does too.
                   "under_score.com", "_dmarc.example.com", "build_01", "a_"] {
            XCTAssertNoThrow(try HostValidation.hostname(ok), ok)
        }
        for bad in ["", "-a.com", "a-.com", "a..b", "a b", "256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.999",
                    "::g", "a.-b.com", "a\tb.com", "a\u{1}b", " web", "web\n", "1:2:3:4:5:6:7:8:9", "a.com/x", String(repeating: "a", count: 64) + ".com",
                    "host;rm", "-oProxyCommand=x", "."] {
            XCTAssertThrowsError(try HostValidation.hostname(bad), bad) { e in
                XCTAssertEqual((e as? HostStoreError)?.message, "invalid hostname '\(bad)': use a DNS name, an IPv4 address or an IPv6 address")
            }
        }
        XCTAssertThrowsError(try HostValidation.hostname("[::1]")) { e in
            XCTAssertEqual((e as? HostStoreError)?.message, "invalid hostname '[::1]': write an IPv6 address without brackets")
        }
    }

    func testPorts() throws {
        XCTAssertEqual(try HostValidation.port(text: "1"), 1)
        XCTAssertEqual(try HostValidation.port(text: "65535"), 65535)
        XCTAssertEqual(try HostValidation.port(text: "022"), 22)
        for bad in ["0", "65536", "-1", "abc", "", "22a", " 22", "+22", "99999999999999999999"] {
            XCTAssertThrowsError(try HostValidation.port(text: bad), bad) { e in
                XCTAssertEqual((e as? HostStoreError)?.kind, .rejected)
                XCTAssertEqual((e as? HostStoreError)?.message, "invalid port '\(bad)': use a whole number from 1 to 65535")
            }
        }
    }

    func testUsersAndTags() {
        for ok in ["root", "john.doe", "svc_backup-1", "me@corp.example"] { XCTAssertNoThrow(try HostValidation.user(ok), ok) }
        for bad in ["", "-oops", "a b", "a:b", String(repeating: "u", count: 65)] { XCTAssertThrowsError(try HostValidation.user(bad), bad) }
        for ok in ["prod", "tag:db", "eu-west.1"] { XCTAssertNoThrow(try HostValidation.tag(ok), ok) }
        for bad in ["", "a b", "a,b", String(repeating: "t", count: 65)] { XCTAssertThrowsError(try HostValidation.tag(bad), bad) }
    }

    func testNotes() {
        XCTAssertNoThrow(try HostValidation.note("rack 4, ask Ann first"))
        XCTAssertThrowsError(try HostValidation.note("two\nlines")) { e in
            XCTAssertEqual((e as? HostStoreError)?.message, "the note contains a line break at character 4")
        }
        XCTAssertThrowsError(try HostValidation.note(String(repeating: "n", count: 4097)))
    }

    func testAuthIsDerived() {
        XCTAssertEqual(HostAuth.derived(hasPassword: true, hasKey: true), .password)
        XCTAssertEqual(HostAuth.derived(hasPassword: false, hasKey: true), .key)
        XCTAssertEqual(HostAuth.derived(hasPassword: false, hasKey: false), .agent)
    }
}
