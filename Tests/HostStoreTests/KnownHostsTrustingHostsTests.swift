// Which saved hosts trust a host key (the standing agent's question for a bound
// connection): the trust core decides for each host's own hostname and port, so plain,
// hashed, pattern and `[host]:port` entries count as they do for ssh, and revoked,
// negated or other-port entries do not.
import Foundation
import XCTest
@testable import HostStore
import KeyFormats
import TestSupport

final class KnownHostsTrustingHostsTests: KnownHostsStoreTestCase {
    func testSavedHostsBehindAHostKeyAreTheOnesTheTrustCoreTrusts() throws {
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

    /// A host certificate (made by ssh-keygen -s): the hosts whose entries trust it through
    /// `@cert-authority` (its principals permitting) or through its certified key.
    func testSavedHostsBehindAHostCertificate() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen") else { throw XCTSkip("no ssh-keygen") }
        let tmp: TempFolder = folder
        func keygen(_ args: [String]) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
            p.arguments = ["-q"] + args
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, "ssh-keygen \(args)")
        }
        func line(_ file: String) throws -> String {
            try String(contentsOfFile: tmp.file(file), encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        }
        for name in ["ca", "other-ca", "host"] { try keygen(["-t", "ed25519", "-N", "", "-f", tmp.file(name)]) }
        try keygen(["-s", tmp.file("ca"), "-h", "-I", "host", "-n", "host.test,x.wild.test,plain.test", tmp.file("host.pub")])
        let certificateLine = try line("host-cert.pub")
        guard case .certificate(let certificate) = try PresentedHostKey.parse(certificateLine) else { return XCTFail(certificateLine) }
        try FileManager.default.moveItem(atPath: tmp.file("host-cert.pub"), toPath: tmp.file("first-cert.pub"))
        try keygen(["-s", tmp.file("other-ca"), "-h", "-I", "host", "-n", "host.test", tmp.file("host.pub")])
        let stranger = try PresentedHostKey.parse(try line("host-cert.pub"))

        for (name, hostname, port) in [("cert", "host.test", 22), ("ported", "host.test", 2222), ("plainkey", "plain.test", 22),
                                       ("wild", "x.wild.test", 22), ("noprincipal", "y.wild.test", 22), ("none", "none.test", 22)] {
            _ = try db.addHost(NewHost(name: name, hostname: hostname, port: port))
        }
        // Plain names only: the candidates come from the entries holding the CA or the key.
        _ = try store.importKnownHosts(Array("""
            @cert-authority host.test \(try line("ca.pub"))
            plain.test \(try line("host.pub"))

            """.utf8))
        // `ported` (host.test:2222) through ssh's fallback to the bare name.
        XCTAssertEqual(try store.hostNames(trustingHostKey: certificate.blob), ["cert", "plainkey", "ported"])
        XCTAssertEqual(try store.hostNames(trusting: .certificate(certificate)), ["cert", "plainkey", "ported"])
        XCTAssertEqual(try store.hostNames(trusting: stranger), ["plainkey"], "another CA's certificate: only its plain key counts")
        // A pattern list: every saved host is a candidate; the principals decide.
        _ = try store.importKnownHosts(Array("@cert-authority *.wild.test \(try line("ca.pub"))\n".utf8))
        XCTAssertEqual(try store.hostNames(trustingHostKey: certificate.blob), ["cert", "plainkey", "ported", "wild"])
    }
}
