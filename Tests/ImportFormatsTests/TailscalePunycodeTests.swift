// Punycode (RFC 3492) and alias sanitising.
import ImportFormats
import XCTest

final class TailscalePunycodeTests: XCTestCase {
    // RFC 3492 §7.1 sample strings (a selection) and the labels of
    // testdata/tailscale/status-unicode-names.json.
    let vectors: [(unicode: String, punycode: String)] = [
        ("bücher-nas", "bcher-nas-q9a"),
        ("서버-01", "-01-2f1nx7p"),
        ("他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),                   // (B) Chinese (simplified)
        ("hello-another-way-それぞれの場所", "hello-another-way--fc4qua05auwb3674vfr0b"),  // (L)
        ("ひとつ屋根の下2", "2-u9tlzr9756bt3uc0v"),                           // (M)
        ("pročprostěnemluvíčesky", "proprostnemluvesky-uyb24dma41a"),        // (D) Czech
        ("abc", "abc-"),
    ]

    func testEncodeAndDecode() {
        for v in vectors {
            XCTAssertEqual(Punycode.encode(v.unicode), v.punycode, v.unicode)
            XCTAssertEqual(Punycode.decode(v.punycode), v.unicode, v.punycode)
        }
    }

    func testASCIILabelAndDisplay() {
        XCTAssertEqual(Punycode.asciiLabel("Bücher-NAS"), "xn--bcher-nas-q9a")
        XCTAssertEqual(Punycode.asciiLabel("web01"), "web01")
        XCTAssertEqual(Punycode.unicodeLabel("xn--bcher-nas-q9a"), "bücher-nas")
        XCTAssertEqual(Punycode.unicodeLabel("xn---01-2f1nx7p"), "서버-01")
        XCTAssertEqual(Punycode.unicodeLabel("web01"), "web01")
        XCTAssertEqual(Punycode.asciiName("bücher-nas.tail4f21c8.ts.net"), "xn--bcher-nas-q9a.tail4f21c8.ts.net")
    }

    func testInvalidPunycodeIsNilNotACrash() {
        for bad in ["99999999999999999999", "a-ü", "-zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "!!", "-9"] {
            XCTAssertNil(Punycode.decode(bad), bad)
        }
        XCTAssertEqual(Punycode.unicodeLabel("xn--!!"), "xn--!!")
    }

    func testSanitizedLabels() {
        let cases: [(String, String)] = [
            ("🚀 Zoë's build box 🚀", "zos-build-box"),
            ("R&D <lab>", "rd-lab"),
            ("Old Box_2", "old-box-2"),
            ("--web--01--", "web-01"),
            ("", ""),
            ("🚀", ""),
            (String(repeating: "a", count: 70), String(repeating: "a", count: 63)),
        ]
        for (raw, label) in cases { XCTAssertEqual(HostNameSanitizer.label(from: raw), label, raw) }
    }
}
