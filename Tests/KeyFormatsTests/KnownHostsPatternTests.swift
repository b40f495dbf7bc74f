// Pattern lists (match.c; docs/formats.md, "Host patterns"), table-driven.
import XCTest
@testable import KeyFormats

final class KnownHostsPatternTests: XCTestCase {
    func testPatternListTable() {
        let cases: [(name: String, patterns: String, expected: HostPatternList.Outcome)] = [
            ("host.example.com", "host.example.com", .matched),
            ("HOST.Example.com", "host.example.com", .matched),      // lookup lower-cased
            ("host.example.com", "HOST.EXAMPLE.COM", .matched),      // pattern lower-cased too
            ("host.example.com", "*.example.com", .matched),
            ("example.com", "*.example.com", .noMatch),
            ("a.example.com", "?.example.com", .matched),
            ("ab.example.com", "?.example.com", .noMatch),
            ("192.0.2.77", "192.0.2.*", .matched),
            ("2001:db8::1", "2001:*", .matched),
            ("[host]:2222", "[host]:2222", .matched),
            ("[host]:2222", "host", .noMatch),
            ("[host]:2222", "[host]:*", .matched),
            ("h", "[h]", .noMatch),                                  // no character classes
            ("a", "*", .matched),
            ("", "*", .matched),
            ("", "", .noMatch),                                      // an empty list matches nothing
            ("", "a,", .noMatch),                                    // a trailing comma adds no empty pattern
            ("", ",a", .matched),                                    // a leading one does
            ("x", "", .noMatch),
            ("foo", "a,foo,b", .matched),
            ("foo", "!foo", .negated),
            ("foo", "*,!foo", .negated),                             // negation wins regardless of order
            ("foo", "!foo,*", .negated),
            ("bar", "*,!foo", .matched),
            ("bar", "!foo", .noMatch),                               // only negations: never matches
            ("abcabc", "*abc", .matched),
            ("abcab", "a*b*c", .noMatch),
            ("aXbYc", "a*b*c", .matched),
            ("mississippi", "m*iss*ppi", .matched),
            ("x", "x," + String(repeating: "a", count: 1023), .noMatch), // too-long sub-pattern ends the scan
            ("x", String(repeating: "a", count: 1022) + ",x", .matched),
            ("x", "!" + String(repeating: "a", count: 1022) + ",x", .matched),
        ]
        for c in cases {
            XCTAssertEqual(HostPatternList.match(name: c.name, patterns: c.patterns), c.expected, "\(c.name) vs \(c.patterns.prefix(40))")
        }
    }

    func testLookupNames() {
        XCTAssertEqual(HostLookupName(host: "Example.COM").text, "example.com")
        XCTAssertEqual(HostLookupName(host: "example.com", port: 2222).text, "[example.com]:2222")
        XCTAssertEqual(HostLookupName(host: "2001:db8::1", port: 22).text, "2001:db8::1")
        XCTAssertEqual(HostLookupName(host: "2001:db8::1", port: 2222).text, "[2001:db8::1]:2222")
        XCTAssertEqual(HostLookupName(host: "h", port: 2222).bare, HostLookupName(host: "h"))
        XCTAssertNil(HostLookupName(host: "h").bare)
        XCTAssertEqual(HostLookupName.parseBracketed("[Host]:2222"), HostLookupName(host: "host", port: 2222))
        XCTAssertEqual(HostLookupName.parseBracketed("[2001:db8::1]:2222"), HostLookupName(host: "2001:db8::1", port: 2222))
        for literal in ["[host]:22", "[host]:0", "[host]:65536", "[host]:02222", "[host]", "host:2222", "[]:2222", "[h]:22x", "[a]b]:2222"] {
            XCTAssertNil(HostLookupName.parseBracketed(literal), literal)
        }
    }
}
