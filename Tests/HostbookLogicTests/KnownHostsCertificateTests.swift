// Host certificates and @cert-authority entries (docs/openssh-behaviour.md, "Host-key
// decisions"; docs/formats.md, "Certificates"), with a CA and certificates made by ssh-keygen
// at test time, in-process (InProcessCommand runs Hostbook.main). Moved from
// HostbookTests/KnownHostsCertificateTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class KnownHostsCertificateTests: XCTestCase {
    var cli: InProcessCommand!
    var tmp: TempFolder { cli.folder }
    var env: [String: String] = [:]

    override func setUpWithError() throws {
        cli = try InProcessCommand()
        env = ["HOSTBOOK_DB": tmp.file("hostbook.db"), "HOME": tmp.path]
    }

    @discardableResult
    func keygen(_ args: [String]) throws -> Int32 {
        try Tool.run("/usr/bin/ssh-keygen", args).status
    }

    func line(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
    }

    /// Signs the host key with `ca` and returns the certificate as "TYPE BASE64".
    func certificate(ca: String, host: Bool = true, principals: String, validity: String, name: String) throws -> String {
        let key = tmp.file(name)
        try keygen(["-q", "-t", "ed25519", "-N", "", "-f", key])
        var args = ["-q", "-s", tmp.file(ca), "-I", name, "-V", validity]
        if host { args.append("-h") }
        if !principals.isEmpty { args += ["-n", principals] }
        XCTAssertEqual(try keygen(args + [key + ".pub"]), 0)
        return try line(key + "-cert.pub")
    }

    func check(_ host: String, _ key: String) throws -> InProcessCommand.Outcome {
        try cli.call(["known-hosts", "check", host, "--key", key], environment: env)
    }

    func testCertificateAuthorityDecisions() throws {
        try keygen(["-q", "-t", "ed25519", "-N", "", "-f", tmp.file("ca")])
        try keygen(["-q", "-t", "ed25519", "-N", "", "-f", tmp.file("other-ca")])
        let good = try certificate(ca: "ca", principals: "host.test,alias.test", validity: "-1d:+1d", name: "good")
        let known = tmp.file("known_hosts")
        try """
            @cert-authority *.test \(try line(tmp.file("ca.pub")))
            plain-ca.test \(try line(tmp.file("ca.pub")))
            @revoked revoked-ca.test \(try line(tmp.file("ca.pub")))
            @cert-authority revoked-ca.test \(try line(tmp.file("ca.pub")))

            """.write(toFile: known, atomically: true, encoding: .utf8)
        XCTAssertEqual(try cli.call(["known-hosts", "import", known], environment: env).status, 0)

        let trusted = try check("host.test", good)
        XCTAssertEqual(trusted.status, 0, trusted.stderr)
        XCTAssertEqual(trusted.stdout, "trusted: the ED25519 key \(try fingerprint(tmp.file("good.pub"))) is trusted for 'host.test' (signed by a trusted certificate authority)\n")
        XCTAssertEqual(try check("ALIAS.test", good).status, 0)                       // the lookup is lower-cased
        XCTAssertEqual(try check("nothost.test", good).status, 10)                     // not a principal → the plain key, unknown
        XCTAssertEqual(try check("plain-ca.test", good).status, 11)                    // a CA key without the marker does not count
        XCTAssertEqual(try check("revoked-ca.test", good).status, 12)                  // a revoked CA key revokes its certificates
        let expired = try certificate(ca: "ca", principals: "host.test", validity: "20000101:20000102", name: "expired")
        let expiredCheck = try check("host.test", expired)
        XCTAssertEqual(expiredCheck.status, 10)
        XCTAssertTrue(expiredCheck.stderr.contains("signed by a trusted certificate authority: the certificate has expired (valid until 2000-01-02T00:00:00Z)"),
                      expiredCheck.stderr)
        XCTAssertTrue(try check("nothost.test", good).stderr.contains("the certificate is not valid for the host name 'nothost.test'; it lists host.test, alias.test"))
        let future = try certificate(ca: "ca", principals: "host.test", validity: "+10d:+20d", name: "future")
        XCTAssertEqual(try check("host.test", future).status, 10)
        let user = try certificate(ca: "ca", host: false, principals: "host.test", validity: "-1d:+1d", name: "user")
        XCTAssertEqual(try check("host.test", user).status, 10)
        let stranger = try certificate(ca: "other-ca", principals: "host.test", validity: "-1d:+1d", name: "stranger")
        XCTAssertEqual(try check("host.test", stranger).status, 10)
        let anyHost = try certificate(ca: "ca", principals: "", validity: "-1d:+1d", name: "any")
        XCTAssertEqual(try check("whatever.test", anyHost).status, 0)                  // no principals: any host (as ssh)
        // When no CA accepts the certificate, its plain key decides: approved plain key → trusted.
        XCTAssertEqual(try cli.call(["known-hosts", "approve", "nothost.test", "--key", try line(tmp.file("good.pub")), "--yes"],
                                               environment: env).status, 0)
        let approved = try check("nothost.test", good)
        XCTAssertEqual(approved.status, 0)
        XCTAssertEqual(approved.stderr, "", "no refusal once the plain key is trusted")
    }

    func fingerprint(_ pub: String) throws -> String {
        String(try Tool.run("/usr/bin/ssh-keygen", ["-l", "-f", pub]).stdout.split(separator: " ")[1])
    }
}
