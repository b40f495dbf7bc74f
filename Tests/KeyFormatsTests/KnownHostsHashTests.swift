// Hashed names (docs/formats.md, "Hashed names"). The vectors were made with salt 00 01 … 13 and
// verified with `ssh-keygen -F` for the bracketed ones.
import XCTest
@testable import KeyFormats

final class KnownHostsHashTests: XCTestCase {
    static let salt: [UInt8] = Array(0..<20)
    static let vectors: [(name: String, field: String)] = [
        ("example.com", "|1|AAECAwQFBgcICQoLDA0ODxAREhM=|nnUK16ANsXd3hL31YfAkGOluSjU="),
        ("[example.com]:2222", "|1|AAECAwQFBgcICQoLDA0ODxAREhM=|Wgcx+Fm+LmaWwC7rQ80eIf2uHe0="),
        ("192.0.2.1", "|1|AAECAwQFBgcICQoLDA0ODxAREhM=|zLj4Du1cUC+nnuuv+y58kILXidw="),
        ("[2001:db8::1]:2222", "|1|AAECAwQFBgcICQoLDA0ODxAREhM=|oOCWz5sN4wEqApl8GLxdXMOxqpQ="),
    ]

    func testVectors() throws {
        for v in Self.vectors {
            XCTAssertEqual(HashedHostName(hashing: v.name, salt: Self.salt).text, v.field)
            let parsed = try XCTUnwrap(HashedHostName(field: v.field))
            XCTAssertTrue(parsed.matches(v.name))
            if v.name.uppercased() != v.name { XCTAssertFalse(parsed.matches(v.name.uppercased())) }
            XCTAssertTrue(HashedNameMatcher(lookup: v.name).matches(parsed))
            XCTAssertFalse(HashedNameMatcher(lookup: v.name + "x").matches(parsed))
        }
    }

    func testBadHashesAreRefused() {
        for field in ["|1|", "|1|AAECAwQFBgcICQoLDA0ODxAREhM=", "|2|AAECAwQFBgcICQoLDA0ODxAREhM=|nnUK16ANsXd3hL31YfAkGOluSjU=",
                      "|1|AAECAwQFBgcICQoLDA0ODxAR|nnUK16ANsXd3hL31YfAkGOluSjU=",       // salt not 20 bytes
                      "|1|AAECAwQFBgcICQoLDA0ODxAREhM=|nnUK16ANsXd3hL31YfAkGOluSjU",    // not the canonical spelling
                      "|1|AAECAwQFBgcICQoLDA0ODxAREhM=|nnUK16ANsXd3hL31YfAkGOluSjU=,x", "|1|!!|??"] {
            XCTAssertNil(HashedHostName(field: field), field)
        }
    }
}
