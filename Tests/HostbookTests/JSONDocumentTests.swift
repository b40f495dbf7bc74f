// docs/json.md ("JSON output") is the contract of every `--json`: this test reads it
// (the `json-commands` block and one `json-object NAME` block per object), runs every
// command of the command table with --json on the real binary, and holds each output to it:
// exactly the documented fields, in the documented order, with the documented types. A
// command the section does not list, or that this test has no run for, fails. The
// document's completeness and the host sources: HostbookLogicTests/JSONDocumentLogicTests.
import Foundation
import TestSupport
import XCTest

final class JSONDocumentTests: XCTestCase, TestHostKeys {
    typealias FieldType = JSONDocumentContract.FieldType
    typealias Document = JSONDocumentContract.Document

    // MARK: the program against it

    var doc = Document()
    var hb: HostbookFixture!
    /// Commands whose output has been checked.
    var checked: Set<String> = []

    func testEveryCommandPrintsWhatTheDocumentSays() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no D-Bus session: run the tests inside scripts/with-keyring")
        }
        doc = try JSONDocumentContract.readDocument()
        hb = try HostbookFixture()
        hb.environment["HOME"] = hb.dir.path
        let tailscale = PackageRootPath.path + "/testdata/tailscale/"

        // Hosts, and hosts from Tailscale (a rotation, then bad keys: every array non-empty).
        try run("add", "web", "--hostname", "10.0.0.5", "--user", "root", "--tag", "prod")
        try run("add", "gone", "--hostname", "gone.test")
        try run("edit", "web", "--note", "a note", "--no-user")
        try run("import-tailscale", tailscale + "status-rotation-before.json", "--all")
        try run("import-tailscale", tailscale + "status-rotation-after.json", "--all")
        try run("import-tailscale", tailscale + "status-bad-host-key.json", "--all")
        let list = try run("list")
        guard case .array(let hosts) = list else { return XCTFail("list --json is not an array") }
        let fromTailscale = hosts.compactMap { h -> String? in
            guard case .object(let f) = h, f.first(where: { $0.0 == "source" })?.1 == .string("tailscale"),
                  case .string(let name)? = f.first(where: { $0.0 == "name" })?.1 else { return nil }
            return name
        }
        XCTAssertFalse(fromTailscale.isEmpty)
        let shown = try run("show", fromTailscale.first ?? "web")
        XCTAssertNotEqual(field(shown, "tailscale"), .null, "a host from Tailscale shows its details")
        XCTAssertEqual(field(try run("show", "web"), "tailscale"), .null)
        try run("remove", "gone", "--yes")

        // Keys (in the vault of scripts/with-keyring).
        try run("keys", "import", PackageRootPath.path + "/testkeys/openssh/ed25519_none", "--name", "imported")
        try run("keys", "generate", "made")
        try run("keys", "list")
        XCTAssertEqual(field(try run("keys", "show", "made"), "randomart"), .null)
        XCTAssertNotEqual(field(try run("keys", "show", "made", "--randomart"), "randomart"), .null)
        try run("keys", "public", "made")
        XCTAssertEqual(field(try run("keys", "edit", "made", "--confirm", "--grant", "10m"), "confirm"), .bool(true))
        try run("keys", "edit", "made", "--namespace", "file")
        // keys cert add / remove: a certificate by a CA made here, so `certificate` holds every field.
        guard case .string(let madeLine) = field(try run("keys", "public", "made"), "public_key") else { return XCTFail("keys public made") }
        let madePub = hb.dir.file("made.pub"), certCA = hb.dir.file("cert-ca")
        try Data((madeLine + "\n").utf8).write(to: URL(fileURLWithPath: madePub))
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-f", certCA]).status, 0)
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-s", certCA, "-I", "made", "-n", "alice", "-O", "force-command=/bin/true",
                                                  "-V", "-1m:+1h", madePub]).status, 0)
        XCTAssertNotEqual(field(try run("keys", "cert", "add", "made", hb.dir.file("made-cert.pub")), "certificate"), .null)
        try run("keys", "list")
        XCTAssertEqual(field(try run("keys", "cert", "remove", "made"), "certificate"), .null)
        let repo = hb.dir.file("repo")
        XCTAssertEqual(try hb.tool("/usr/bin/git", ["init", "-q", repo]).status, 0)
        try run("git", "setup", "made", "--repo", repo, "--email", "dev@example.com")
        XCTAssertEqual(field(try run("keys", "show", "made"), "git_email"), .string("dev@example.com"))
        try run("keys", "allowed-signers")
        // Certificate authorities (their keys in the same vault).
        try run("ca", "create", "team")
        try run("ca", "list")
        try run("ca", "public", "team")
        try run("ca", "sign", "team", "--key", "made", "--identity", "dev", "--principal", "dev", "--valid", "1h",
                "--output", hb.dir.file("made-cert.pub"))
        try run("ca", "revoke", "team", "--serial", "1")
        XCTAssertEqual(field(try run("ca", "log", "team"), "ca"), .string("team"))
        try run("ca", "krl", "team", "--output", hb.dir.file("team.krl"))
        try run("keys", "remove", "imported", "--yes")

        // Known hosts, with a private sshd for scan.
        let sshd = try PrivateSSHD()
        defer { sshd.stop() }
        try run("known-hosts", "approve", "127.0.0.1", "--port", String(sshd.port), "--key", try sshd.publicKey(), "--yes")
        try run("known-hosts", "scan", "127.0.0.1", "--port", String(sshd.port))
        // keys deploy: a password login as the fixture's account (as root, in CI) to a server
        // that reads the account's own ~/.ssh/authorized_keys.
        let passwordServer = try PrivateSSHD(config: ["PasswordAuthentication yes", "AuthorizedKeysFile .ssh/authorized_keys"])
        defer { passwordServer.stop() }
        try run("known-hosts", "approve", "127.0.0.1", "--port", String(passwordServer.port), "--key", try passwordServer.publicKey(), "--yes")
        XCTAssertEqual(try hb.run(["add", "srv", "--hostname", "127.0.0.1", "--port", String(passwordServer.port), "--user", hb.userName,
                                   "--password-stdin"], stdin: hb.account?.password ?? "").status, 0)
        // 'made' now signs only for git (above) and never logs in: deploy refuses it, and a
        // key of its own is deployed.
        XCTAssertEqual(try hb.run(["keys", "deploy", "made", "srv"]).status, 5)
        try run("keys", "generate", "login")
        XCTAssertEqual(field(try run("keys", "deploy", "login", "srv"), "verified"), .bool(true))
        try run("known-hosts", "approve", "h.test", "--key", keyA, "--yes")
        try run("known-hosts", "check", "h.test", "--key", keyA)
        try run("known-hosts", "revoke", "h.test", "--key", keyB)
        XCTAssertEqual(field(try run("known-hosts", "rotation", "h.test", "--off"), "rotation"), .string("off"))
        try run("known-hosts", "rotation", "h.test")
        XCTAssertEqual(field(try run("known-hosts", "list", "h.test"), "marker", at: 1), .string("revoked"))
        try run("known-hosts", "list")
        try run("known-hosts", "remove", "h.test")
        try run("known-hosts", "history")
        try run("known-hosts", "history", "h.test")
        let file = hb.dir.file("known_hosts")
        try Data("other.test \(keyB)\n@what other.test \(keyA)\n".utf8).write(to: URL(fileURLWithPath: file))
        try run("known-hosts", "import", file)

        // Snippets, the vault, the doctor.
        try run("snippets", "add", "up", "--command", "uptime")
        try run("snippets", "edit", "up", "--description", "how long")
        try run("snippets", "list")
        try run("snippets", "show", "up")
        try run("snippets", "remove", "up", "--yes")
        try run("vault", "status")
        // The session's own keyring answers: unlock starts nothing (lock runs last, below).
        XCTAssertEqual(field(try run("vault", "unlock"), "headless"), .bool(false))
        try run("doctor")

        let config = hb.dir.file("ssh_config")
        try Data("Host jump\n  HostName j.example\n  User admin\nHost web\n  HostName w.example\n  ProxyJump jump\n  ForwardAgent yes\n".utf8)
            .write(to: URL(fileURLWithPath: config))
        try run("import-ssh-config", config, "--dry-run")
        try run("import-ssh-config", config)

        // The standing agent, in a private runtime folder, stopped before the test ends.
        let runtime = hb.dir.file("run")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        hb.environment["XDG_RUNTIME_DIR"] = runtime
        try run("agent", "start")
        defer { _ = try? hb.run(["agent", "stop"]) }
        try run("agent", "status")
        try run("agent", "log")

        // Another agent's keys: OpenSSH's ssh-agent as the fixture's account, holding a key
        // made for it, stopped by its pid.
        let upstreamSocket = runtime + "/upstream.sock"
        let upstream = try Shell.start("exec /usr/bin/ssh-agent -D -a \"$SOCK\"", environment: ["SOCK": upstreamSocket], dir: hb.dir,
                                       tag: "upstream", account: hb.account)
        defer {
            kill(upstream.processIdentifier, SIGTERM)
            upstream.waitUntilExit()
        }
        while upstream.isRunning, !Shell.output(hb.dir, "upstream").0.contains("Agent pid") { usleep(10_000) }
        let held = try Shell.run("ssh-keygen -q -t ed25519 -N '' -C far -f \"$K\" && SSH_AUTH_SOCK=\"$SOCK\" ssh-add -q \"$K\"",
                                 environment: ["K": hb.dir.file("far"), "SOCK": upstreamSocket], account: hb.account)
        XCTAssertEqual(held.status, 0, held.stderr)
        XCTAssertEqual(field(try run("keys", "import-agent", upstreamSocket), "certificates_skipped"), .number("0"))
        XCTAssertEqual(field(try run("keys", "show", "far"), "location"), .string("upstream"))
        try run("agent", "upstream", "add", runtime + "/gone.sock")
        try run("agent", "upstream", "list")
        try run("agent", "upstream", "remove", runtime + "/gone.sock")

        // Team bundles: exported through that agent with the unrestricted key 'login', trusted,
        // imported (dry run, then for real), subscribed to from a git repository, updated.
        let published = hb.dir.file("published")
        XCTAssertEqual(try hb.tool("/usr/bin/git", ["init", "-q", published]).status, 0)
        try run("bundle", "export", "--name", "team", "--sign", "login", "-o", published)
        guard case .string(let signer) = field(try run("keys", "public", "login"), "public_key") else { return XCTFail("keys public login") }
        try run("bundle", "trust", "team", "--signer", signer)
        XCTAssertEqual(field(try run("bundle", "import", published, "--dry-run"), "applied"), .bool(false))
        try run("bundle", "import", published)
        XCTAssertEqual(try hb.tool("/usr/bin/git", ["-C", published, "add", "-A"]).status, 0)
        XCTAssertEqual(try hb.tool("/usr/bin/git", ["-C", published, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "team"]).status, 0)
        try run("bundle", "subscribe", "team", published)
        try run("bundle", "update")
        try run("bundle", "list")
        try run("bundle", "unsubscribe", "team")
        try run("bundle", "untrust", "team", "--signer", signer)
        // A PKCS#11 token (SoftHSM2, scripts/setup installs it): `[token-key]`.
        try SoftHSMToken.make(for: hb)
        try run("keys", "import-token", SoftHSMToken.module, "--name", "tok-")
        // Last: it locks the fixture's keyring (the agent signs nothing after it), and tells
        // the agent, which is stopped then.
        XCTAssertEqual(field(try run("vault", "lock"), "agent_dropped_keys"), .bool(true))
        XCTAssertEqual(field(try run("agent", "stop"), "stopped"), .bool(true))

        // No authenticator the tests have keeps resident keys (OpenSSH's sk-dummy.so answers
        // "unsupported"): `keys import-resident --json` prints `[key]`, key objects as above.
        let needsAResidentKeyDevice: Set = ["keys import-resident"]
        for (command, type) in doc.commands where type != nil && !needsAResidentKeyDevice.contains(command) {
            XCTAssertTrue(checked.contains(command), "no run of '\(command) --json' in this test: add one")
        }
    }

    /// Runs `hostbook ARGS --json`, requires exit 0 and checks stdout against the document.
    @discardableResult
    func run(_ args: String..., file: StaticString = #filePath, line: UInt = #line) throws -> JSON {
        let r = try hb.run(args + ["--json"])
        XCTAssertEqual(r.status, 0, "hostbook \(args.joined(separator: " ")) --json: \(r.stderr)", file: file, line: line)
        let words = commandWords(args)
        guard let documented = doc.commands[words] else {
            XCTFail("docs/json.md does not list '\(words)'", file: file, line: line)
            return .null
        }
        guard let type = documented else { return .null }
        var parser = JSONParser(Array(r.stdoutBytes))
        guard let value = parser.document() else {
            XCTFail("\(words) --json printed no JSON document: \(r.stdout)", file: file, line: line)
            return .null
        }
        checked.insert(words)
        holds(value, to: type, nullable: false, at: words, file: file, line: line)
        return value
    }

    /// The command words at the start of `args` (the longest that the document lists).
    func commandWords(_ args: [String]) -> String {
        for n in stride(from: min(3, args.count), through: 1, by: -1) {
            let w = args.prefix(n).joined(separator: " ")
            if doc.commands[w] != nil { return w }
        }
        return args.first ?? ""
    }

    func holds(_ v: JSON, to type: FieldType, nullable: Bool, at path: String, file: StaticString, line: UInt) {
        if v == .null {
            XCTAssertTrue(nullable, "\(path) is null, which docs/json.md does not allow", file: file, line: line)
            return
        }
        switch (type, v) {
        case (.string, .string), (.boolean, .bool): break
        case (.integer, .number(let n)):
            XCTAssertNotNil(Int(n), "\(path) is \(n), not an integer", file: file, line: line)
        case (.time, .string(let s)):
            XCTAssertNotNil(s.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#, options: .regularExpression),
                            "\(path) is '\(s)', not ISO 8601 UTC", file: file, line: line)
        case (.array(let element), .array(let items)):
            for (i, item) in items.enumerated() { holds(item, to: element, nullable: false, at: "\(path)[\(i)]", file: file, line: line) }
        case (.object(let name), .object(let fields)):
            guard let spec = doc.objects[name] else { return XCTFail("\(path): no json-object block '\(name)'", file: file, line: line) }
            let expected = spec.filter { f in !f.presentOnly || fields.contains { $0.0 == f.name } }.map(\.name)
            XCTAssertEqual(fields.map(\.0), expected, "\(path) (\(name)): the fields differ from docs/json.md", file: file, line: line)
            for f in spec {
                guard let value = fields.first(where: { $0.0 == f.name })?.1 else { continue }
                holds(value, to: f.type, nullable: f.nullable, at: "\(path).\(f.name)", file: file, line: line)
            }
        default:
            XCTFail("\(path) is \(v), not \(type) as docs/json.md says", file: file, line: line)
        }
    }

    func field(_ v: JSON, _ name: String, at index: Int = 0) -> JSON? {
        var v = v
        if case .array(let items) = v { guard index < items.count else { return nil }; v = items[index] }
        guard case .object(let fields) = v else { return nil }
        return fields.first { $0.0 == name }?.1
    }
}

/// JSON with its fields in the order printed (Foundation's parser forgets the order and
/// cannot tell `true` from `1`).
enum JSON: Equatable {
    case null, bool(Bool), number(String), string(String), array([JSON]), object([(String, JSON)])

    static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)), (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
        default: return false
        }
    }
}

struct JSONParser {
    let b: [UInt8]
    var i = 0

    init(_ bytes: [UInt8]) { b = bytes }

    /// One value and nothing after it but whitespace, or nil.
    mutating func document() -> JSON? {
        guard let v = value() else { return nil }
        space()
        return i == b.count ? v : nil
    }

    mutating func space() { while i < b.count, [0x20, 0x0A, 0x0D, 0x09].contains(b[i]) { i += 1 } }

    mutating func literal(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard b.count - i >= u.count, Array(b[i..<i + u.count]) == u else { return false }
        i += u.count
        return true
    }

    mutating func value() -> JSON? {
        space()
        guard i < b.count else { return nil }
        switch b[i] {
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "\""): return string().map { .string($0) }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSON] = []
            space()
            if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                guard let v = value() else { return nil }
                items.append(v)
                space()
                guard i < b.count else { return nil }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                return nil
            }
        case UInt8(ascii: "{"):
            i += 1
            var fields: [(String, JSON)] = []
            space()
            if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
            while true {
                space()
                guard let k = string() else { return nil }
                space()
                guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                guard let v = value() else { return nil }
                fields.append((k, v))
                space()
                guard i < b.count else { return nil }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
                return nil
            }
        default:
            let start = i
            while i < b.count, "-+.eE0123456789".utf8.contains(b[i]) { i += 1 }
            return i > start ? .number(String(decoding: b[start..<i], as: UTF8.self)) : nil
        }
    }

    /// A string; escapes are decoded only as far as this test needs (they are kept as typed).
    mutating func string() -> String? {
        guard i < b.count, b[i] == UInt8(ascii: "\"") else { return nil }
        i += 1
        var out: [UInt8] = []
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
            if c == UInt8(ascii: "\\") { guard i + 1 < b.count else { return nil }; out.append(c); out.append(b[i + 1]); i += 2; continue }
            out.append(c)
            i += 1
        }
        return nil
    }
}
