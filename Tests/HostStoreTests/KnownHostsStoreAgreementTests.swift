// The store finds exactly the entries ssh-keygen -F finds: a generated known_hosts file
// with one distinct key per line is imported, and for each lookup the lines behind the
// matching store entries (identified by their key) equal the lines ssh-keygen -F prints.
import Foundation
import XCTest
import HostStore
import KeyFormats
import TestSupport

final class KnownHostsStoreAgreementTests: KnownHostsStoreTestCase {
    func testStoreLookupsAgreeWithSSHKeygen() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen") else { throw XCTSkip("no ssh-keygen") }

        let salt = [UInt8](repeating: 3, count: 20)
        let fields = [
            "plain.test", "other.test,plain.test", "[plain.test]:2222", "[Ported.Test]:2222,ported.test",
            "*.test", "*.test,!secret.test", "?.test", "[*.test]:2222", "!only.test", "a.test,!b.test,c.test",
            HashedHostName(hashing: "hashed.test", salt: salt).text, HashedHostName(hashing: "[hashed.test]:2222", salt: salt).text,
            "192.0.2.*", "2001:db8::1", "[2001:db8::1]:2222", "@revoked plain.test", "@cert-authority *.test",
        ]
        var text = "# generated\n"
        var lineOfKey: [String: Int] = [:]
        for (i, field) in fields.enumerated() {
            let key = PublicKey(.ed25519(publicKey: (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) }))
            lineOfKey[key.sha256Fingerprint] = i + 2
            text += "\(field) \(key.type) \(key.base64)\n"
        }
        let path = folder.file("known_hosts")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(try store.importKnownHosts(Array(text.utf8)).skipped, [])

        let queries: [(String, Int)] = [
            ("plain.test", 22), ("plain.test", 2222), ("other.test", 22), ("ported.test", 2222), ("ported.test", 22),
            ("x.test", 22), ("x.test", 2222), ("secret.test", 22), ("only.test", 22), ("a.test", 22), ("b.test", 22),
            ("c.test", 22), ("hashed.test", 22), ("hashed.test", 2222), ("192.0.2.7", 22), ("2001:db8::1", 22),
            ("2001:db8::1", 2222), ("nothing", 22),
        ]
        for (host, port) in queries {
            let lookup = HostLookupName(host: host, port: port)
            let ours = Set(try store.entries(matching: lookup).compactMap { lineOfKey[$0.fingerprint] })
            let (_, output) = try Tool.output("/usr/bin/ssh-keygen", ["-F", lookup.text, "-f", path])
            let theirs = Set(output.split(separator: "\n").compactMap { line -> Int? in
                guard line.hasPrefix("# Host "), let r = line.range(of: "found: line ") else { return nil }
                return Int(line[r.upperBound...].prefix(while: { $0.isNumber }))
            })
            XCTAssertEqual(ours, theirs, lookup.text)
        }
    }
}
