// The streaming JSON reader: grammar (RFC 8259), chunk boundaries, and never a crash.
@testable import ImportFormats
import XCTest
import TestSupport

final class TailscaleJSONReaderTests: XCTestCase {
    /// Reads `text` as one value, skipping it, and then expects the end.
    func validate(_ text: String, chunk: Int = 1 << 16) throws {
        let r = JSONStreamReader(MemorySource(text, maxRead: chunk), chunkSize: chunk)
        try r.skipValue()
        try r.expectEnd()
    }

    func testValidDocuments() throws {
        let valid = [
            "{}", "[]", " [ 1 , -0.5e+3 , true , false , null ] ", #"{"a":{"b":[{"c":"\u00e9\"\\\/\b\f\n\r\t"}]}}"#,
            "0", "-0", "1E9", #""\ud83d\ude80""#, "[[[[[]]]]]",
        ]
        for text in valid {
            for chunk in [1, 2, 3, 7, 64] { XCTAssertNoThrow(try validate(text, chunk: chunk), "\(text) chunk \(chunk)") }
        }
    }

    func testInvalidDocuments() {
        let invalid: [(String, String)] = [
            ("{", "it ends early, at line 1 (the input looks cut off)"),
            (#"{"a":1,}"#, "expected a member name in quotes but found '}' at line 1, column 8"),
            ("[1 2]", "expected ',' or ']' but found '2' at line 1, column 4"),
            ("01", "unexpected '1' after the end of the JSON value at line 1, column 2"),
            ("tru", "it ends early, at line 1 (the input looks cut off)"),
            ("nul!", "unexpected '!' at line 1, column 4"),
            (#""\x""#, "invalid escape '\\x' in a string at line 1, column 3"),
            (#""\ud800""#, "a lone UTF-16 surrogate in a string at line 1, column 8"),
            ("\"a\nb\"", "a control character (byte 0xa) inside a string at line 1, column 3"),
            ("{\n  \"a\": -\n}", "expected a digit but found byte 0xa at line 2, column 9"),
            ("1.", "it ends early, at line 1 (the input looks cut off)"),
            ("hello", "unexpected 'h' at line 1, column 1"),
            ("{} {}", "unexpected '{' after the end of the JSON value at line 1, column 4"),
        ]
        for (text, message) in invalid {
            XCTAssertThrowsError(try validate(text), text) { error in
                XCTAssertEqual((error as? JSONSyntaxError)?.description, message, text)
            }
        }
    }

    func testInvalidUTF8InAStringIsRefused() {
        let r = JSONStreamReader(MemorySource([0x22, 0xff, 0x22]))
        XCTAssertThrowsError(try r.readString(path: "x")) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.reason, "a string is not valid UTF-8")
        }
    }

    func testDeepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        XCTAssertThrowsError(try validate(deep)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.reason, "values are nested more than 512 deep")
        }
    }

    func testDecodesStringsAcrossChunkBoundaries() throws {
        let text = #"{"name":"Zoë 🚀 \u0026 \ud83d\ude80 tail","n":[12345678901234,null,-7],"ok":true}"#
        for chunk in [1, 2, 3, 5, 16, 1024] {
            let r = JSONStreamReader(MemorySource(text, maxRead: chunk), chunkSize: chunk)
            var name = "", numbers: [Int64?] = [], ok: Bool?
            try r.readObject { key in
                switch key {
                case "name": name = try r.readString(path: key)
                case "n": try r.readArray { numbers.append(try r.readOptionalInt(path: key)) }
                case "ok": ok = try r.readOptionalBool(path: key)
                default: XCTFail(key)
                }
            }
            try r.expectEnd()
            XCTAssertEqual(name, "Zoë 🚀 & 🚀 tail", "chunk \(chunk)")
            XCTAssertEqual(numbers, [12345678901234, nil, -7])
            XCTAssertEqual(ok, true)
        }
    }

    func testWrongKindIsAShapeError() {
        let r = JSONStreamReader(MemorySource(#"{"ips": "100.1.1.1"}"#))
        XCTAssertThrowsError(try r.readObject { key in _ = try r.readStringArray(path: "Peer.\(key)") }) { error in
            XCTAssertEqual((error as? JSONShapeError)?.description, "Peer.ips is a string, expected an array of strings")
        }
    }

    /// Reading a whole status one byte per read gives the same devices as reading it at once.
    func testOneBytePerReadGivesTheSameDocument() throws {
        let bytes = try TailscaleFixtures.bytes(TailscaleFixtures.own("status-rotation-after.json"))
        let whole = try TailscaleDocumentReader.read(MemorySource(bytes))
        let trickle = try TailscaleDocumentReader.read(MemorySource([0xEF, 0xBB, 0xBF] + bytes, maxRead: 1))
        XCTAssertEqual(trickle.nodes, whole.nodes)
        XCTAssertEqual(whole.nodes.count, 3)
    }

    /// Every prefix of a real status file is refused (as cut off or not Tailscale), never a crash.
    func testEveryPrefixOfAStatusIsRefused() throws {
        let bytes = try TailscaleFixtures.bytes(TailscaleFixtures.own("status-rotation-before.json"))
        for end in stride(from: 0, to: bytes.count - 1, by: 3) {
            XCTAssertThrowsError(try TailscaleDocumentReader.read(MemorySource(Array(bytes[..<end]))), "prefix \(end)")
        }
        XCTAssertNoThrow(try TailscaleDocumentReader.read(MemorySource(bytes)))
    }

    /// Random bytes and random mutations of a status never crash the reader.
    func testMutatedInputsNeverCrash() throws {
        let bytes = try TailscaleFixtures.bytes(TailscaleFixtures.own("status-rotation-before.json"))
        var rng = SeededGenerator()
        for _ in 0..<2000 {
            var m = bytes
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: 0..<m.count, using: &rng)
                m[i] = UInt8.random(in: 0...255, using: &rng)
            }
            _ = try? TailscaleDocumentReader.read(MemorySource(m))
        }
        for _ in 0..<500 {
            let noise = (0..<Int.random(in: 0...200, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = try? TailscaleDocumentReader.read(MemorySource(noise))
        }
    }
}

final class TailscaleUntrustedTextTests: XCTestCase {
    func testOverlongStringsAndNumbersAreRefused() {
        let long = "\"" + String(repeating: "a", count: (1 << 20) + 1) + "\""
        XCTAssertThrowsError(try JSONStreamReader(MemorySource(long)).readString(path: "x")) {
            XCTAssertEqual(($0 as? JSONSyntaxError)?.reason, "a string is longer than 1 MiB")
        }
        let escapes = "\"" + String(repeating: "\\u0041", count: (1 << 20) + 1) + "\""
        XCTAssertThrowsError(try JSONStreamReader(MemorySource(escapes)).readString(path: "x")) {
            XCTAssertEqual(($0 as? JSONSyntaxError)?.reason, "a string is longer than 1 MiB")
        }
        let number = String(repeating: "9", count: (1 << 20) + 1)
        XCTAssertThrowsError(try JSONStreamReader(MemorySource(number)).readOptionalInt(path: "x")) {
            XCTAssertEqual(($0 as? JSONSyntaxError)?.reason, "a number is longer than 1 MiB")
        }
    }

    /// Terminal escapes, bidi overrides and junk tags from the input never reach output or tags.
    func testUnsafeTextIsCleaned() throws {
        let status = #"""
        {"BackendState": "Running", "Self": {"ID": "nS"},
         "Peer": {"nodekey:\u001b[2J": {"ID": "n1", "DNSName": "box.tail1.ts.net.", "HostName": "a\u001b]0;pwn\u0007b",
                  "OS": "li\u202enux", "Tags": ["tag:ok", "tag:bad tag", "nope", "tag:\u001b"], "LastSeen": "\u001b[31m",
                  "TailscaleIPs": ["100.64.0.1"], "UserID": 1}},
         "User": {"1": {"LoginName": "eve\u009b@example.com"}}}
        """#
        let doc = try TailscaleDocumentReader.read(MemorySource(status))
        let node = doc.nodes[1]
        XCTAssertEqual(node.hostName, "a]0;pwnb")
        XCTAssertEqual(node.os, "linux")
        XCTAssertEqual(node.tags, ["tag:ok"])
        XCTAssertNil(node.lastSeen)
        XCTAssertEqual(node.owner, "eve@example.com")
        // An error message that quotes input shows control characters as escapes.
        let bad = #"{"BackendState": "Running", "Self": {}, "Peer": {"nodekey:\u001b[2J": 5}}"#
        XCTAssertThrowsError(try TailscaleDocumentReader.read(MemorySource(bad))) {
            XCTAssertEqual(($0 as? TailscaleInputError)?.message,
                           #"the input looks like Tailscale JSON but Peer["nodekey:\u{1b}[2J"] is a number, expected an object"#)
        }
        // A punycode label that decodes to a bidi override is shown in its ASCII form.
        let rlo = try XCTUnwrap(Punycode.encode("a\u{202E}b"))
        XCTAssertEqual(Punycode.unicodeLabel("xn--" + rlo), "xn--" + rlo)
    }
}
