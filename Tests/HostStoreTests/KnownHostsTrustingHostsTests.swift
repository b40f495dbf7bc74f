// Which saved hosts trust a host key (the standing agent's question for a bound
// connection): the trust core decides for each host's own hostname and port, so plain,
// hashed, pattern and `[host]:port` entries count as they do for ssh, and revoked,
// negated or other-port entries do not.
import Foundation
import XCTest
@testable import HostStore
import KeyFormats

final class KnownHostsTrustingHostsTests: XCTestCase {
    func testSavedHostsBehindAHostKeyAreTheOnesTheTrustCoreTrusts() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("kh-trusting-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let db = try HostDatabase.open(path: tmp.appendingPathComponent("db").path)
        let store = KnownHostsStore(database: db)
        let a = KnownHostsStoreTests.ed25519(1), b = KnownHostsStoreTests.ed25519(2), c = KnownHostsStoreTests.ed25519(3)
        for (name, hostname, port) in [("plain", "plain.test", 22), ("ported", "ported.test", 2222), ("hashed", "hashed.test", 22),
                                       ("wild", "x.wild.test", 22), ("negated", "no.wild.test", 22), ("revoked", "rev.test", 22),
                                       ("otherport", "plain.test", 2200), ("stranger", "stranger.test", 22)] {
            _ = try db.addHost(NewHost(name: name, hostname: hostname, port: port))
        }
        let salt = [UInt8](repeating: 9, count: 20)
        let file = """
            plain.test ssh-ed25519 \(a.base64)
            [ported.test]:2222 ssh-ed25519 \(a.base64)
            \(HashedHostName(hashing: "hashed.test", salt: salt).text) ssh-ed25519 \(a.base64)
            *.wild.test,!no.wild.test ssh-ed25519 \(b.base64)
            rev.test ssh-ed25519 \(a.base64)
            @revoked rev.test ssh-ed25519 \(a.base64)
            stranger.test ssh-ed25519 \(c.base64)

            """
        _ = try store.importKnownHosts(Array(file.utf8))
        // `otherport` (plain.test:2200) trusts a through ssh's fallback to the bare name.
        XCTAssertEqual(try store.hostNames(trustingHostKey: a.blob), ["hashed", "otherport", "plain", "ported"])
        XCTAssertEqual(try store.hostNames(trustingHostKey: b.blob), ["wild"])
        XCTAssertEqual(try store.hostNames(trustingHostKey: c.blob), ["stranger"])
        XCTAssertEqual(try store.hostNames(trustingHostKey: KnownHostsStoreTests.ed25519(4).blob), [])
        XCTAssertEqual(try store.hostNames(trustingHostKey: [0, 0, 0, 1, 65]), [])
    }
}
