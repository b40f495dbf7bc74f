// scripts/package: the Debian package holds the binary, the man page, the three completions
// and the systemd user unit where Debian looks for them, depends on the libraries the binary
// links, and the binary needs no Swift library (the Swift runtime is linked in). Checked
// with dpkg-deb -c / -I / -x, ldd, and lintian when it is installed.
//
// A release build takes minutes: the test packages .build/release/hostbook when that one
// already needs no Swift library, else it lets scripts/package build once in a folder of its
// own (.build/package, reused by later runs; not .build, which `swift test` holds).
import Foundation
import XCTest

final class DebianPackageTests: XCTestCase {
    static let root = InstallScriptTests.root

    func run(_ path: String, _ args: [String], environment: [String: String] = [:]) throws -> HostbookResult {
        try ToolProcess.run(URL(fileURLWithPath: path), args, environment: environment, timeout: 3600)
    }

    /// The Swift runtime libraries `ldd` says `binary` loads.
    func swiftLibraries(_ binary: String) throws -> [String] {
        let ldd = try run("/usr/bin/ldd", [binary])
        XCTAssertEqual(ldd.status, 0, ldd.stderr)
        return ldd.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.range(of: #"^lib(swift[A-Za-z_]*|dispatch|BlocksRuntime|_?Foundation[A-Za-z]*)\.so"#, options: .regularExpression) != nil }
    }

    func testThePackageHoldsEverythingInDebiansPlaces() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb") else { throw XCTSkip("dpkg-deb is not installed") }
        let out = try TemporaryDirectory(rootOnly: true)
        var args = ["--output", out.path]
        let release = Self.root.appendingPathComponent(".build/release/hostbook").path
        if FileManager.default.isExecutableFile(atPath: release), try swiftLibraries(release).isEmpty {
            args += ["--binary", release]
        } else {
            args += ["--scratch-path", Self.root.appendingPathComponent(".build/package").path]
        }
        let built = try run(Self.root.appendingPathComponent("scripts/package").path, args)
        XCTAssertEqual(built.status, 0, built.stderr)
        let deb = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let version = try HostbookProcess.run(["--version"]).stdout.split(separator: " ")[1].trimmingCharacters(in: .whitespacesAndNewlines)
        let arch = try run("/usr/bin/dpkg", ["--print-architecture"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(deb, out.path + "/hostbook_\(version)_\(arch).deb")

        // Contents, owned by root, with their modes.
        let listing = try run("/usr/bin/dpkg-deb", ["-c", deb])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        var entries: [String: String] = [:]
        for line in listing.stdout.split(separator: "\n") {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            XCTAssertEqual(f[1], "root/root", String(line))
            entries[String(f[5].dropFirst())] = String(f[0])
        }
        let expected = [
            "/usr/bin/hostbook": "-rwxr-xr-x",
            "/usr/share/man/man1/hostbook.1.gz": "-rw-r--r--",
            "/usr/share/bash-completion/completions/hostbook": "-rw-r--r--",
            "/usr/share/zsh/vendor-completions/_hostbook": "-rw-r--r--",
            "/usr/share/fish/vendor_completions.d/hostbook.fish": "-rw-r--r--",
            "/usr/lib/systemd/user/hostbook-agent.service": "-rw-r--r--",
            "/usr/share/doc/hostbook/copyright": "-rw-r--r--",
            "/usr/share/doc/hostbook/changelog.gz": "-rw-r--r--",
        ]
        for (path, mode) in expected { XCTAssertEqual(entries[path], mode, path) }
        XCTAssertEqual(Set(entries.keys.filter { !$0.hasSuffix("/") }), Set(expected.keys), "only these files")

        // The control file: the package, its version and what it depends on.
        let info = try run("/usr/bin/dpkg-deb", ["-I", deb])
        XCTAssertEqual(info.status, 0, info.stderr)
        func field(_ name: String) -> String? {
            info.stdout.split(separator: "\n").first { $0.hasPrefix(" \(name): ") }.map { String($0.dropFirst(name.count + 3)) }
        }
        XCTAssertEqual(field("Package"), "hostbook")
        XCTAssertEqual(field("Version"), version)
        XCTAssertEqual(field("Architecture"), arch)
        let depends = Set((field("Depends") ?? "").components(separatedBy: ", "))
        for package in ["libsecret-1-0", "libsodium23", "libsqlite3-0", "libssl3", "openssh-client", "libc6"] {
            XCTAssertTrue(depends.contains(package), "Depends lacks \(package): \(depends)")
        }
        XCTAssertFalse(depends.contains { $0.contains("swift") }, "\(depends)")

        // Unpacked: what each file holds is what the binary generates, and the binary needs
        // no Swift library (none is in the package, and a machine without Swift has none).
        let tree = out.file("tree")
        XCTAssertEqual(try run("/usr/bin/dpkg-deb", ["-x", deb, tree]).status, 0)
        let binary = tree + "/usr/bin/hostbook"
        XCTAssertEqual(try swiftLibraries(binary), [])
        let ldd = try run("/usr/bin/ldd", [binary]).stdout
        XCTAssertFalse(ldd.contains("not found"), ldd)
        XCTAssertEqual(try run(binary, ["--version"]).stdout, "hostbook \(version)\n")
        let man = try run("/bin/sh", ["-c", "gzip -dc \"$0\"", tree + "/usr/share/man/man1/hostbook.1.gz"])
        XCTAssertEqual(man.stdout, try run(binary, ["man"]).stdout)
        for (shell, path) in [("bash", "/usr/share/bash-completion/completions/hostbook"), ("zsh", "/usr/share/zsh/vendor-completions/_hostbook"),
                              ("fish", "/usr/share/fish/vendor_completions.d/hostbook.fish")] {
            XCTAssertEqual(try String(contentsOfFile: tree + path, encoding: .utf8), try run(binary, ["completions", shell]).stdout, shell)
        }
        let unit = try String(contentsOfFile: tree + "/usr/lib/systemd/user/hostbook-agent.service", encoding: .utf8)
        XCTAssertTrue(unit.contains("\nExecStart=/usr/bin/hostbook agent run\n"), unit)
        let rendered = try run("/usr/bin/man", ["-l", tree + "/usr/share/man/man1/hostbook.1.gz"],
                               environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertTrue(rendered.stdout.contains("HOSTBOOK(1)"))

        // lintian, where it is installed: no errors.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/lintian") {
            let lintian = try run("/usr/bin/lintian", ["--no-tag-display-limit", deb])
            XCTAssertFalse(lintian.stdout.split(separator: "\n").contains { $0.hasPrefix("E: ") }, lintian.stdout)
        }
    }

    func testBadArgumentsAndABinaryThatNeedsSwiftAreRefused() throws {
        let script = Self.root.appendingPathComponent("scripts/package").path
        let bad = try run(script, ["--frobnicate"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "scripts/package: unknown argument '--frobnicate'\nUsage: scripts/package [--binary FILE] [--output DIR] [--scratch-path DIR]\n")
        let help = try run(script, ["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertFalse(help.stdout.contains("set -euo"), help.stdout)
        XCTAssertTrue(help.stdout.contains("scripts/package [--binary FILE] [--output DIR] [--scratch-path DIR]"), help.stdout)
        // The debug build under test links the Swift runtime dynamically: refused, nothing written.
        let debug = HostbookProcess.builtBinaryURL.path
        guard try !swiftLibraries(debug).isEmpty else { throw XCTSkip("the binary under test needs no Swift library") }
        let out = try TemporaryDirectory(rootOnly: true)
        let refused = try run(script, ["--binary", debug, "--output", out.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.hasPrefix("scripts/package: '\(debug)' needs the Swift runtime, which a machine without Swift lacks:\n"), refused.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), [])
    }
}
