// Which shared libraries a hostbook process maps, in the dynamic loader's own words
// (LD_DEBUG=files): libsecret and GLib only once a command uses the vault
// (Vault/LibSecret/LibSecretLibrary.swift), so the `known-hosts lookup` ssh runs on every
// connection through the installed configuration starts without them (issue 32).
import Foundation
import TestSupport
import XCTest

final class LibSecretLoadingTests: XCTestCase {
    func testKnownHostsLookupStartsWithoutLibsecretAndTheVaultLoadsItWhenUsed() throws {
        let tmp = try TemporaryDirectory()
        let env = ["HOSTBOOK_DB": tmp.file("hostbook.db"), "HOME": tmp.path, "LD_DEBUG": "files"]

        let lookup = try HostbookProcess.run(["known-hosts", "lookup", "ORDER", "example.com", "example.com", "22", "NONE", "NONE"],
                                             environment: env)
        XCTAssertEqual(lookup.status, 0, lookup.stderr)
        XCTAssertTrue(lookup.stderr.contains("file=libsqlite3.so.0"), "the loader's account is missing: \(lookup.stderr)")
        for library in ["libsecret-1.so.0", "libglib-2.0.so.0", "libgio-2.0.so.0"] {
            XCTAssertFalse(lookup.stderr.contains("file=\(library)"), "known-hosts lookup loaded \(library)")
        }

        let status = try HostbookProcess.run(["vault", "status"], environment: env)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stderr.contains("file=libsecret-1.so.0"), "vault status did not load libsecret: \(status.stderr.suffix(2000))")
    }
}
