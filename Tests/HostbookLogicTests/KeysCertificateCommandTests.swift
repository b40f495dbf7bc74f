// `keys import` with a certificate beside the key, `keys cert add` / `remove`, how `keys
// list` and `keys show` print a certificate (and print nothing new without one), and
// `doctor`'s warning about a certificate near its end, in-process (InProcessCommand runs
// Hostbook.main, the real Secret Service) with certificates made by ssh-keygen -s. Moved
// from HostbookTests/KeysCertificateCommandTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class KeysCertificateCommandTests: XCTestCase {
    var hb: InProcessCommand!

    override func setUpWithError() throws { hb = try InProcessCommand() }
    override func tearDown() { hb = nil }

    /// A CA (made once) and key NAME; with `certifying`, NAME-cert.pub certifies that key's
    /// public half (NAME's own by default) with `validity`.
    @discardableResult
    private func key(_ name: String, certifying: String? = nil, validity: String = "-5m:+1h") throws -> String {
        let ca = hb.dir.file("ca"), path = hb.dir.file(name)
        if !FileManager.default.fileExists(atPath: ca) {
            XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", ca]).status, 0)
        }
        XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path]).status, 0)
        if let certifying {
            let subject = hb.dir.file("subject-\(name).pub")
            try FileManager.default.copyItem(atPath: hb.dir.file(certifying) + ".pub", toPath: subject)
            let made = try Tool.run("/usr/bin/ssh-keygen", ["-q", "-s", ca, "-I", "id-\(name)", "-n", "alice,bob", "-z", "42", "-V", validity,
                                                  "-O", "clear", "-O", "permit-pty", "-O", "force-command=uptime", subject])
            XCTAssertEqual(made.status, 0, made.stderr)
            try FileManager.default.moveItem(atPath: hb.dir.file("subject-\(name)-cert.pub"), toPath: path + "-cert.pub")
        }
        return path
    }

    func testImportAttachesOnlyItsOwnCertificateAndListAndShowPrintIt() throws {
        // A key without a certificate: list and show as ever (no certificate column or line).
        try hb.ok("keys", "import", try key("plain"))
        let plainList = try hb.ok("keys", "list").stdout
        XCTAssertFalse(plainList.contains("CERTIFICATE"), plainList)
        XCTAssertFalse(try hb.ok("keys", "show", "plain").stdout.contains("certificate"))

        // A certificate of another key beside the file: a warning, the key imported without it.
        let other = try key("other", certifying: "plain")
        let imported = try hb.run(["keys", "import", other])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stderr.contains("hostbook: warning: not attached: '\(other)-cert.pub' certifies the key SHA256:"), imported.stderr)
        XCTAssertFalse(imported.stdout.contains("Attached"), imported.stdout)
        XCTAssertEqual((try hb.json("keys", "show", "other") as? [String: Any])?["certificate"] as? NSNull, NSNull())

        // Its own certificate beside it: attached, and shown.
        let own = try key("own", certifying: "own")
        XCTAssertTrue(try hb.ok("keys", "import", own).stdout.contains("Attached its certificate: user certificate, key id \"id-own\", serial 42, principals alice, bob"))
        let show = try hb.ok("keys", "show", "own").stdout
        let caFingerprint = String(try Tool.run("/usr/bin/ssh-keygen", ["-l", "-f", hb.dir.file("ca.pub")]).stdout.split(separator: " ")[1])
        for line in ["certificate:  user certificate, key id \"id-own\", serial 42", "principals:   alice, bob",
                     "critical:     force-command uptime", "extensions:   permit-pty", "signing CA:   \(caFingerprint) (ED25519)"] {
            XCTAssertTrue(show.contains("\n" + line + "\n"), "\(line) in:\n\(show)")
        }
        XCTAssertTrue(show.contains("(valid now)"), show)
        let list = try hb.ok("keys", "list").stdout
        XCTAssertTrue(list.contains("CERTIFICATE"), list)
        XCTAssertTrue(list.contains("user #42, until "), list)

        // The refusal words and exit code; then remove, and the list is as it was.
        let wrong = try hb.run(["keys", "cert", "add", "plain", own + "-cert.pub"])
        XCTAssertEqual(wrong.status, 5)
        XCTAssertTrue(wrong.stderr.hasPrefix("hostbook: '\(own)-cert.pub' certifies the key SHA256:"), wrong.stderr)
        let notACertificate = try hb.run(["keys", "cert", "add", "plain", own + ".pub"])
        XCTAssertEqual(notACertificate.status, 5)
        XCTAssertTrue(notACertificate.stderr.hasPrefix("hostbook: '\(own).pub' is a public key, not a certificate\n"), notACertificate.stderr)
        try hb.ok("keys", "cert", "remove", "own")
        XCTAssertEqual(try hb.run(["keys", "cert", "remove", "own"]).status, 4)
        try hb.ok("keys", "remove", "other", "--yes")
        XCTAssertEqual(try hb.ok("keys", "list").stdout.split(separator: "\n").first, plainList.split(separator: "\n").first)
        XCTAssertFalse(try hb.ok("keys", "list").stdout.contains("CERTIFICATE"))
    }

    func testDoctorWarnsBeforeACertificateEndsWithTheCommandThatRenewsIt() throws {
        try hb.ok("keys", "import", try key("soon", certifying: "soon", validity: "-1d:+2d"))
        try hb.ok("keys", "import", try key("gone", certifying: "gone", validity: "20200101:20200102"))
        try hb.ok("keys", "import", try key("fine", certifying: "fine", validity: "-1d:+30d"))
        let r = try hb.run(["doctor", "--json"])
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any], r.stderr)
        let findings = try XCTUnwrap(o["findings"] as? [[String: Any]]).filter { $0["check"] as? String == "keys.certificate" }
        XCTAssertEqual(findings.count, 2, "\(findings)")
        let messages = findings.compactMap { $0["message"] as? String }
        XCTAssertTrue(messages.contains { $0.hasPrefix("the certificate of key 'gone' (key id \"id-gone\", serial 42) expired at 2020-01-02T00:00:00Z") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("the certificate of key 'soon' (key id \"id-soon\", serial 42) expires at ") && $0.hasSuffix(", within 7 days") }, "\(messages)")
        for finding in findings {
            let message = finding["message"] as? String ?? ""
            let name = message.contains("'gone'") ? "gone" : "soon"
            XCTAssertEqual(finding["fix"] as? String, "Get a renewed certificate from your CA, then run: hostbook keys cert add \(name) FILE")
        }
    }
}
