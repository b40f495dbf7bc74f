// What the `hostbook ssh` tests share: a fixture whose HOME and XDG_RUNTIME_DIR are
// private temporary folders, keys made by ssh-keygen and imported, hosts trusted, and the
// checks that a session left nothing behind.
import Foundation
import TestSupport
import XCTest

final class SSHTestBed {
    let fx: HostbookFixture
    let home: String
    let runtime: String
    /// What ~/.ssh/known_hosts held before; it must never change.
    let knownHostsBefore = Data("# the user's own file\n[127.0.0.1]:1 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n".utf8)
    /// Unencrypted private key files made for the test, to look for in every file afterwards.
    private(set) var privateKeyTexts: [String] = []

    init() throws {
        fx = try HostbookFixture()
        home = fx.account?.home ?? fx.dir.file("home")
        runtime = fx.account?.runtime ?? fx.dir.file("run")
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try knownHostsBefore.write(to: URL(fileURLWithPath: home + "/.ssh/known_hosts"))
        fx.environment["HOME"] = home
        fx.environment["XDG_RUNTIME_DIR"] = runtime
    }

    /// Makes a key with ssh-keygen, encrypted with `passphrase`, imports it as `name`, and
    /// returns its public line.
    @discardableResult
    func importKey(_ name: String, type: String = "ed25519", passphrase: String = "correct horse") throws -> String {
        let path = fx.dir.file("\(name)-key")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", type, "-N", passphrase, "-C", name, "-f", path]).status, 0)
        // A plain copy of the same key, only to search the disk for its text afterwards.
        let plain = fx.dir.file("\(name)-plain")
        try FileManager.default.copyItem(atPath: path, toPath: plain)
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-p", "-P", passphrase, "-N", "", "-f", plain]).status, 0)
        privateKeyTexts.append(try String(contentsOfFile: plain, encoding: .utf8))
        try FileManager.default.removeItem(atPath: plain)
        let r = try fx.run(["keys", "import", path, "--name", name, "--passphrase-stdin"], stdin: passphrase)
        XCTAssertEqual(r.status, 0, r.stderr)
        try FileManager.default.removeItem(atPath: path)
        return try String(contentsOfFile: path + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func trust(_ sshd: PrivateSSHD) throws {
        let r = try fx.run(["known-hosts", "approve", "127.0.0.1", "--port", String(sshd.port), "--key", try sshd.publicKeyTypeAndBlob(), "--yes"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func ssh(_ args: [String]) throws -> HostbookResult { try fx.run(["ssh"] + args) }

    /// Nothing left: no socket or file in the runtime folder, no process using the
    /// database, the user's known_hosts unchanged, no private key text in any file.
    func assertNothingLeft(file: StaticString = #filePath, line: UInt = #line) throws {
        let leftovers = (FileManager.default.enumerator(atPath: runtime)?.allObjects as? [String] ?? [])
            .filter { $0 != "hostbook" }
        XCTAssertEqual(leftovers, [], "left in XDG_RUNTIME_DIR", file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: home + "/.ssh/known_hosts")), knownHostsBefore,
                       "~/.ssh/known_hosts changed", file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home + "/.ssh"), ["known_hosts"], file: file, line: line)
        for pid in try FileManager.default.contentsOfDirectory(atPath: "/proc") where Int32(pid) != nil && Int32(pid) != getpid() {
            guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { continue }
            let text = String(decoding: cmdline.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            XCTAssertFalse(text.contains(fx.dir.path), "process \(pid) still runs: \(text)", file: file, line: line)
        }
        let bodies = privateKeyTexts.map { text in
            text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        }
        for path in [fx.dir.path] {
            guard let e = FileManager.default.enumerator(atPath: path) else { continue }
            for case let name as String in e {
                guard let data = FileManager.default.contents(atPath: path + "/" + name) else { continue }
                let text = String(decoding: data, as: UTF8.self)
                XCTAssertFalse(text.contains("PRIVATE KEY"), "\(name) holds a private key", file: file, line: line)
                let flat = text.replacingOccurrences(of: "\n", with: "")
                for body in bodies where body.count > 60 {
                    XCTAssertFalse(flat.contains(String(body.prefix(200).dropFirst(60))), "\(name) holds key material", file: file, line: line)
                }
            }
        }
    }
}
