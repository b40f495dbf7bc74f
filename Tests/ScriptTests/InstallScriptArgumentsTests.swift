// scripts/install and scripts/uninstall read their own arguments: what they refuse and what
// `--help` prints, without installing anything or running hostbook (installing, which runs
// the binary, is HostbookTests/InstallScriptTests).
import Foundation
import TestSupport
import XCTest

final class InstallScriptArgumentsTests: XCTestCase {
    func script(_ name: String, _ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Tool.run(PackageRoot.file("scripts/\(name)").path, args)
    }

    func testBadArgumentsAreUsageErrors() throws {
        let r = try script("install", ["--frobnicate"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr, "scripts/install: unknown argument '--frobnicate'\nUsage: scripts/install [--prefix DIR] [--binary FILE]\n")
        XCTAssertEqual(try script("uninstall", ["--prefix"]).status, 2)
        let missing = try script("install", ["--prefix", "/tmp/x", "--binary", "/nonexistent/hostbook"])
        XCTAssertEqual(missing.status, 1)
    }

    /// `--help` prints the comment at the top and nothing of the code below it (it ended
    /// with `set -euo pipefail`), and documents both options.
    func testHelpIsTheCommentAtTheTop() throws {
        for name in ["install", "uninstall"] {
            let r = try script(name, ["--help"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stderr, "")
            XCTAssertFalse(r.stdout.contains("set -euo"), r.stdout)
            XCTAssertFalse(r.stdout.split(separator: "\n").contains { $0.hasPrefix("#") }, r.stdout)
            XCTAssertTrue(r.stdout.contains("scripts/\(name) [--prefix DIR]"), r.stdout)
        }
        let install = try script("install", ["-h"]).stdout
        XCTAssertTrue(install.contains("scripts/install [--prefix DIR] [--binary FILE]"), install)
        XCTAssertTrue(install.contains("\n  --binary FILE   install that hostbook executable instead of building the release one\n"), install)
        XCTAssertTrue(install.contains("\n  --prefix DIR    install under DIR (default ~/.local)\n"), install)
    }
}
