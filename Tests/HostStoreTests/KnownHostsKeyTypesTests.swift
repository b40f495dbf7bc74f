// The store's answer to "which key types are known for this host and port" (what `hostbook
// ssh` prefers in HostKeyAlgorithms and the ORDER run prints) against its own `check`: every
// key it lists is one `check` trusts at that host and port, and every plain key `check`
// trusts there is listed. A second copy of the `[host]:port` → bare-name rule that drifts
// from the one in `check` fails here.
import Foundation
import XCTest
@testable import HostStore
import KeyFormats

final class KnownHostsKeyTypesTests: XCTestCase {
    static func ed25519(_ seed: UInt8) -> PublicKey {
        PublicKey(.ed25519(publicKey: (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 3 &+ Int(seed)) }))
    }
    static let ecdsa = try! PublicKeyLine.parse("ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBIb3BhJZk+vUQPg5TQc1koIzuGqloCq7wjr9LjlhG24IBeiFHLsdWw74HDlH4DrOmlxToVYk2lTdnjARleRByjk=").key

    func store(_ lines: [String]) throws -> (KnownHostsStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kh-types-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let store = KnownHostsStore(database: try HostDatabase.open(path: dir.appendingPathComponent("db").path))
        _ = try store.importKnownHosts(Array(lines.joined(separator: "\n").utf8) + [0x0A])
        return (store, dir)
    }

    func line(_ host: String, _ key: PublicKey, marker: String = "") -> String {
        (marker.isEmpty ? "" : marker + " ") + "\(host) \(key.type) \(key.base64)"
    }

    func testAgreesWithCheck() throws {
        let a = Self.ed25519(1), b = Self.ed25519(2), ec = Self.ecdsa
        let cases: [(name: String, lines: [String], port: Int, types: [String], viaBare: Bool)] = [
            ("port 22, bare entry", [line("h.example", a)], 22, ["ssh-ed25519"], false),
            ("port 2222, only a bare entry: the bare name answers", [line("h.example", a)], 2222, ["ssh-ed25519"], true),
            ("port 2222, a bracketed entry: it alone answers", [line("h.example", a), line("[h.example]:2222", ec)], 2222,
             ["ecdsa-sha2-nistp256"], false),
            ("port 2222, bracketed entry on another port only", [line("[h.example]:2200", ec), line("h.example", a)], 2222,
             ["ssh-ed25519"], true),
            ("port 2222, only a revoked bracketed entry: the bare name answers",
             [line("[h.example]:2222", b, marker: "@revoked"), line("h.example", a)], 2222, ["ssh-ed25519"], true),
            ("port 2222, a pattern for the bracketed name", [line("[h.*]:2222", ec), line("h.example", a)], 2222,
             ["ecdsa-sha2-nistp256"], false),
            ("nothing known", [line("other.example", a)], 2222, [], true),
        ]
        for c in cases {
            let (store, dir) = try store(c.lines)
            defer { try? FileManager.default.removeItem(at: dir) }
            let lookup = HostLookupName(host: "h.example", port: c.port)
            let known = try store.knownKeyTypes(lookup)
            XCTAssertEqual(known.types, c.types, c.name)
            XCTAssertEqual(known.viaBareName, c.viaBare && c.port != 22, c.name)
            XCTAssertFalse(known.certificateAuthority, c.name)
            for key in [a, b, ec] {
                let trusted = try store.check(lookup, presented: .plain(key)).decision.status == .trusted
                let listed = known.entries.contains { $0.keyBlob == key.blob }
                XCTAssertEqual(trusted, listed, "\(c.name): \(key.type) trusted by check \(trusted), listed \(listed)")
            }
        }
    }

    func testCertificateAuthorityIsReported() throws {
        let (store, dir) = try store([line("*.example", Self.ed25519(9), marker: "@cert-authority")])
        defer { try? FileManager.default.removeItem(at: dir) }
        let known = try store.knownKeyTypes(HostLookupName(host: "h.example", port: 2222))
        XCTAssertTrue(known.certificateAuthority)
        XCTAssertEqual(known.types, [])
    }
}
