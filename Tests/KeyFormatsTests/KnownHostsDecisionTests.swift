// The decision procedure of docs/openssh-behaviour.md, "Host-key decisions", case by case.
import XCTest
@testable import KeyFormats

final class KnownHostsDecisionTests: XCTestCase {
    typealias M = KnownHostsLine.Marker
    let a = KnownHostsFixtures.ed25519(1)
    let b = KnownHostsFixtures.ed25519(2)
    let r = KnownHostsFixtures.rsa(3)

    func record(_ marker: M, _ key: PublicKey) -> HostKeyRecord {
        HostKeyRecord(marker: marker, keyType: key.type, keyBlob: key.blob)
    }

    func testPlainKeyTable() {
        let cases: [(String, [(M, PublicKey)], PublicKey, HostKeyStatus, [Int])] = [
            ("nothing known → unknown", [], a, .unknown, []),
            ("the key is known → trusted", [(.none, a)], a, .trusted, [0]),
            ("several keys, one matches → trusted", [(.none, r), (.none, b), (.none, a)], a, .trusted, [2]),
            ("same key on two lines → both reported", [(.none, a), (.none, a)], a, .trusted, [0, 1]),
            ("another key of the same type → changed", [(.none, b)], a, .changed, [0]),
            ("only a key of another type → changed", [(.none, r)], a, .changed, [0]),
            ("changed lists every unmarked line, last is the offending one", [(.none, r), (.none, b)], a, .changed, [0, 1]),
            ("@revoked for the key → revoked", [(.revoked, a)], a, .revoked, [0]),
            ("@revoked overrides a trusting line", [(.none, a), (.revoked, a)], a, .revoked, [1]),
            ("@revoked for another key does not count", [(.revoked, b)], a, .unknown, []),
            ("@revoked for another key, key known → trusted", [(.revoked, b), (.none, a)], a, .trusted, [1]),
            ("@cert-authority holding the plain key does not trust it", [(.certAuthority, a)], a, .unknown, []),
            ("@cert-authority lines are not 'other keys'", [(.certAuthority, b), (.none, a)], a, .trusted, [1]),
            ("CA line plus other unmarked key → changed", [(.certAuthority, a), (.none, b)], a, .changed, [1]),
        ]
        for (label, entries, presented, status, indices) in cases {
            let d = HostKeyPolicy.decide(.plain(presented), records: entries.map { record($0.0, $0.1) }, hostName: "h", now: 0)
            XCTAssertEqual(d.status, status, label)
            XCTAssertEqual(d.entries, indices, label)
            XCTAssertFalse(d.viaCertificateAuthority, label)
        }
    }

    func testPresentedKeyParsing() throws {
        XCTAssertEqual(try PresentedHostKey.parse("ssh-ed25519 \(a.base64) comment here"), .plain(a))
        XCTAssertEqual(try PresentedHostKey.parse("  \(r.type)\t\(r.base64)"), .plain(r))
        let cases: [(String, String)] = [
            ("", "the key is empty; expected 'TYPE BASE64'"),
            ("ssh-ed25519", "no key data after the key type 'ssh-ed25519'"),
            ("ssh-ed25519 !!!!", "the key data is not valid base64"),
            ("ssh-rsa \(a.base64)", "key type mismatch: 'ssh-rsa' given but the key is ssh-ed25519"),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try PresentedHostKey.parse(text), text) { XCTAssertEqual(($0 as? KeyFormatError)?.reason, reason, text) }
        }
    }
}
