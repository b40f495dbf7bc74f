// scripts/package: the Debian package holds the binary, the man page, the three completions
// and the systemd user unit where Debian looks for them, depends on the libraries the binary
// links, and the binary needs no Swift library (the Swift runtime is linked in). Checked
// with dpkg-deb -c / -I / -x, ldd, and lintian when it is installed; then, as root on a
// machine without a hostbook package, installed with apt-get, used by an ordinary user with
// an empty environment, and purged without a trace.
//
// A release build takes minutes. scripts/test (a full run) packages the debug build it
// tests before `swift test` starts (`scripts/package --configuration debug`: the same script
// and link flags, the objects already compiled for the tests) and names the .deb in
// HOSTBOOK_TEST_DEB; this test checks that one. Run on its own, the test packages
// .build/release/hostbook when that one already needs no Swift library, else it lets
// scripts/package build once in a folder of its own (.build/package, reused by later runs;
// not .build, which `swift test` holds).
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

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
        let deb: String
        if let made = ProcessInfo.processInfo.environment["HOSTBOOK_TEST_DEB"] {
            deb = made   // written by scripts/package, built by its own build line (debug)
        } else {
            let release = Self.root.appendingPathComponent(".build/release/hostbook").path
            if FileManager.default.isExecutableFile(atPath: release), try swiftLibraries(release).isEmpty {
                args += ["--binary", release]
            } else {
                args += ["--scratch-path", Self.root.appendingPathComponent(".build/package").path]
            }
            let built = try run(Self.root.appendingPathComponent("scripts/package").path, args)
            XCTAssertEqual(built.status, 0, built.stderr)
            deb = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let version = try HostbookProcess.run(["--version"]).stdout.split(separator: " ")[1].trimmingCharacters(in: .whitespacesAndNewlines)
        let arch = try run("/usr/bin/dpkg", ["--print-architecture"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual((deb as NSString).lastPathComponent, "hostbook_\(version)_\(arch).deb")
        XCTAssertTrue(FileManager.default.fileExists(atPath: deb), deb)

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
        // What 'vault unlock' (a bus and gnome-keyring-daemon) and 'bundle' (git) run.
        XCTAssertEqual(field("Recommends"), "dbus-daemon, gnome-keyring, git")

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

        // lintian, where it is installed (scripts/setup installs it): no errors.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/lintian") {
            let lintian = try run("/usr/bin/lintian", ["--display-info", "--tag-display-limit", "0", deb])
            XCTAssertTrue([0, 1].contains(lintian.status), lintian.stderr)
            XCTAssertFalse(lintian.stdout.split(separator: "\n").contains { $0.hasPrefix("E: ") }, lintian.stdout)
            // Nor what scripts/package fixed: a placeholder maintainer lintian takes for
            // bogus, description lines over 80 columns, no md5sums, lazy binding, .comment.
            // (A binary given with --binary was linked by someone else: its binding is theirs.)
            let fixed = ["bogus-mail-host", "extended-description-line-too-long", "no-md5sums-control-file", "binary-has-unneeded-section"]
            for tag in fixed + (args.contains("--binary") ? [] : ["hardening-no-bindnow"]) {
                XCTAssertFalse(lintian.stdout.contains(tag), tag + ": " + lintian.stdout)
            }
        } else {
            print("DebianPackageTests: lintian is not installed (scripts/setup installs it), so it did not check the package")
        }

        try installUseAndPurge(deb, version: version, entries: Array(entries.keys))
    }

    /// As root, on a machine where no hostbook package is installed: `apt-get install` the
    /// .deb, run it as an ordinary user with an empty environment (no Swift on PATH, no
    /// LD_LIBRARY_PATH), purge it, and check that nothing it installed is left. A hostbook
    /// package installed before the test is never touched: then only the contents are checked.
    private func installUseAndPurge(_ deb: String, version: String, entries: [String]) throws {
        guard getuid() == 0 else {
            print("DebianPackageTests: not root, so the package is not installed (its contents are checked only)")
            return
        }
        let before = try run("/usr/bin/dpkg-query", ["-W", "-f", "${Status}", "hostbook"])
        if before.status == 0 && before.stdout != "unknown ok not-installed" {
            print("DebianPackageTests: a hostbook package was on this machine before the test (\(before.stdout)); it is left alone, "
                  + "so the .deb was not installed (its contents are checked only)")
            return
        }
        let files = entries.filter { !$0.hasSuffix("/") }.sorted()
        let folders = entries.filter { $0.hasSuffix("/") && $0 != "/" }.map { String($0.dropLast()) }
        let newFolders = folders.filter { !FileManager.default.fileExists(atPath: $0) }
        for file in files { XCTAssertFalse(FileManager.default.fileExists(atPath: file), "\(file) is there before the install") }
        let apt = ["DEBIAN_FRONTEND": "noninteractive"]
        let install = try run("/usr/bin/apt-get", ["install", "-y", "--no-install-recommends", "-o", "DPkg::Lock::Timeout=300", deb], environment: apt)
        var installed = install.status == 0
        defer {
            if installed { _ = try? run("/usr/bin/apt-get", ["remove", "-y", "--purge", "-o", "DPkg::Lock::Timeout=300", "hostbook"], environment: apt) }
        }
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)
        guard installed else { return }
        for file in files { XCTAssertTrue(FileManager.default.fileExists(atPath: file), "\(file) is not installed") }

        // An ordinary user, an empty environment: no Swift toolchain, no library path.
        let fx = try HostbookFixture()
        let empty = ["-i", "PATH=/usr/bin:/bin", "HOME=\(fx.account?.home ?? fx.dir.path)", "LANG=C.UTF-8"]
        func clean(_ args: [String]) throws -> HostbookResult { try fx.tool("/usr/bin/env", empty + args) }
        let environment = try clean(["/bin/sh", "-c", "command -v swift || echo no swift; echo \"${LD_LIBRARY_PATH-no library path}\""])
        XCTAssertEqual(environment.stdout, "no swift\nno library path\n")
        let shown = try clean(["/usr/bin/hostbook", "--version"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(shown.stdout, "hostbook \(version)\n")
        let db = fx.dir.file("package.db")
        XCTAssertEqual(try clean(["/usr/bin/hostbook", "add", "web", "--hostname", "10.0.0.7", "--user", "deploy", "--db", db]).status, 0)
        let list = try clean(["/usr/bin/hostbook", "list", "--json", "--db", db])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("\"hostname\": \"10.0.0.7\""), list.stdout)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
            let where_ = try clean(["/usr/bin/man", "-w", "hostbook"])
            XCTAssertEqual(where_.stdout, "/usr/share/man/man1/hostbook.1.gz\n", where_.stderr)
        }
        let completion = try clean(["/bin/bash", "-c", ". /usr/share/bash-completion/completions/hostbook && complete -p hostbook"])
        XCTAssertEqual(completion.status, 0, completion.stderr)
        XCTAssertTrue(completion.stdout.hasSuffix(" hostbook\n"), completion.stdout)

        // Purged: every file gone, and every folder the package made.
        let purge = try run("/usr/bin/apt-get", ["remove", "-y", "--purge", "-o", "DPkg::Lock::Timeout=300", "hostbook"], environment: apt)
        XCTAssertEqual(purge.status, 0, purge.stdout + purge.stderr)
        installed = purge.status != 0
        for path in files + newFolders { XCTAssertFalse(FileManager.default.fileExists(atPath: path), "\(path) is left after the purge") }
        let after = try run("/usr/bin/dpkg-query", ["-W", "-f", "${Status}", "hostbook"])
        XCTAssertTrue(after.status != 0 || after.stdout == "unknown ok not-installed", after.stdout)
    }

    func testBadArgumentsAndABinaryThatNeedsSwiftAreRefused() throws {
        let script = Self.root.appendingPathComponent("scripts/package").path
        let usage = "Usage: scripts/package [--binary FILE] [--output DIR] [--scratch-path DIR] [--configuration release|debug]"
        let bad = try run(script, ["--frobnicate"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "scripts/package: unknown argument '--frobnicate'\n\(usage)\n")
        let configuration = try run(script, ["--configuration", "fast"])
        XCTAssertEqual(configuration.status, 2)
        XCTAssertEqual(configuration.stderr, "scripts/package: unknown configuration 'fast' (release or debug)\n\(usage)\n")
        let help = try run(script, ["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertFalse(help.stdout.contains("set -euo"), help.stdout)
        XCTAssertTrue(help.stdout.contains("scripts/package [--binary FILE] [--output DIR] [--scratch-path DIR] [--configuration C]"), help.stdout)
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
