// The plan of one `hostbook ssh` session, made in-process from a real SQLite database
// (HostStore): a target behind two jump hosts, each with its own key, password or trusted
// host keys, rendered as the session's ssh_config and read back by the real `ssh -G -F`
// (the oracle for what ssh makes of it); and the refusals: a jump chain that loops, one
// longer than JumpChain.maxHosts (both only writable past HostStore's own refusals, by
// SQL), and a key gone from the database after its host was read. No hostbook binary runs.
import Foundation
import XCTest
@testable import HostStore
import KeyFormats
@testable import Sessions

final class SSHPlanTests: XCTestCase {
    private var folder: String!
    private var database: HostDatabase!
    private var databasePath: String { folder + "/hostbook.db" }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ssh-plan-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        database = try HostDatabase.open(path: databasePath)
    }

    override func tearDown() {
        database = nil
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// `app` (key app-key, user deploy, port 2222) jumps through `inner` (a stored password),
    /// which jumps through `outer` (key edge-key); app.test has an Ed25519 host key and
    /// outer.test an RSA one trusted.
    private func addChain() throws {
        for name in ["app-key", "edge-key"] {
            let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: name)
            _ = try KeyStore(database: database).insert(NewKey(uuid: UUIDString.random(), name: name, publicKey: key.publicKey,
                                                               comment: name, format: "openssh"))
        }
        try database.addHost(NewHost(name: "outer", hostname: "outer.test", key: "edge-key"))
        try database.addHost(NewHost(name: "inner", hostname: "10.0.0.7", user: "ops", jump: "outer", hasPassword: true))
        try database.addHost(NewHost(name: "app", hostname: "app.test", port: 2222, user: "deploy", key: "app-key", jump: "inner"))
        let appHostKey = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "")
        let outerHostKey = try PrivateKeyGenerator.generate(.rsa, bits: 2048, comment: "")
        let lines = "[app.test]:2222 \(appHostKey.publicKey.line(comment: ""))\nouter.test \(outerHostKey.publicKey.line(comment: ""))\n"
        _ = try KnownHostsStore(database: database).importKnownHosts(Array(lines.utf8))
    }

    func testTwoJumpHostsMakeThreeHopsWithTheirOwnKeysPasswordAndHostKeyAlgorithms() throws {
        try addChain()
        let plan = try SSHPlan.load(database, name: "app", snippetName: nil)
        XCTAssertEqual(plan.hops.map(\.alias), ["app", "inner", "outer"])
        XCTAssertEqual(plan.hops.map(\.jumpAlias), ["inner", "outer", nil])
        XCTAssertEqual(plan.hops.map { $0.key?.name }, ["app-key", nil, "edge-key"])
        XCTAssertEqual(plan.hops.map(\.hasPassword), [false, true, false])
        XCTAssertEqual(plan.hops.map(\.hostKeyAlgorithms), [["ssh-ed25519"], [], ["rsa-sha2-512", "rsa-sha2-256"]])
        XCTAssertTrue(plan.needsAgent)
        XCTAssertTrue(plan.needsAskpass)
        XCTAssertNil(plan.snippet)
        XCTAssertEqual(plan.databaseID, database.databaseID)
    }

    func testTheSessionConfigIsWhatSshResolvesForEveryHop() throws {
        try addChain()
        let plan = try SSHPlan.load(database, name: "app", snippetName: nil)
        let socket = folder + "/ssh-session.sock"
        let paths = SSHSessionConfig.Paths(agentSocket: socket, publicKeyFiles: ["app": folder + "/hop1.pub", "outer": folder + "/hop2.pub"])
        let config = SSHSessionConfig(hostbookPath: "/usr/local/bin/hostbook", databasePath: databasePath, noInput: true)
        let file = folder + "/ssh_config"
        try Array(try config.render(plan, paths: paths).utf8).withUnsafeBufferPointer { try Data(buffer: $0).write(to: URL(fileURLWithPath: file)) }

        let lookup = "/usr/local/bin/hostbook --db \(databasePath) --no-input known-hosts lookup %I %H %h %p %t %K %n"
        let app = try sshG(file, "app")
        XCTAssertEqual(app["hostname"], ["app.test"])
        XCTAssertEqual(app["port"], ["2222"])
        XCTAssertEqual(app["user"], ["deploy"])
        XCTAssertEqual(app["proxyjump"], ["inner"])
        XCTAssertEqual(app["identityagent"], [socket])
        XCTAssertEqual(app["identityfile"], [folder + "/hop1"], "the public key file without .pub (ssh reads PATH.pub)")
        XCTAssertEqual(app["identitiesonly"], ["yes"])
        XCTAssertEqual(app["forwardagent"], ["no"])
        XCTAssertEqual(app["hostkeyalgorithms"]?.first?.hasPrefix("ssh-ed25519,"), true, "the trusted key's algorithm first, ssh's defaults after")
        XCTAssertEqual(app["knownhostscommand"], [lookup])
        XCTAssertEqual(app["userknownhostsfile"], ["none"])
        XCTAssertEqual(app["globalknownhostsfile"], ["none"])
        XCTAssertEqual(app["stricthostkeychecking"], ["true"])
        XCTAssertEqual(app["updatehostkeys"], ["false"])
        XCTAssertNotEqual(app["preferredauthentications"], ["password"], "no password on this hop")
        XCTAssertNotEqual(app["numberofpasswordprompts"], ["1"])

        let inner = try sshG(file, "inner")
        XCTAssertEqual(inner["hostname"], ["10.0.0.7"])
        XCTAssertEqual(inner["user"], ["ops"])
        XCTAssertEqual(inner["proxyjump"], ["outer"])
        XCTAssertEqual(inner["preferredauthentications"], ["password"])
        XCTAssertEqual(inner["passwordauthentication"], ["yes"])
        XCTAssertEqual(inner["kbdinteractiveauthentication"], ["no"])
        XCTAssertEqual(inner["numberofpasswordprompts"], ["1"])
        XCTAssertEqual(inner["identitiesonly"], ["no"], "no key: the agent is not this hop's")
        XCTAssertEqual(inner["knownhostscommand"], [lookup])

        let outer = try sshG(file, "outer")
        XCTAssertEqual(outer["hostname"], ["outer.test"])
        XCTAssertNil(outer["proxyjump"], "the first hop connects directly")
        XCTAssertEqual(outer["identityfile"], [folder + "/hop2"])
        XCTAssertEqual(outer["hostkeyalgorithms"]?.first?.hasPrefix("rsa-sha2-512,rsa-sha2-256,"), true)
    }

    /// Host-key rotation per hop (SSHHostKeyRotation): a hop with a key trusted for its very
    /// name gets its own file and `UpdateHostKeys yes`, an unknown one keeps `none`/`no`; what a
    /// hop's ssh writes is taken for that hop's name only, so a jump host never learns a
    /// target's keys, nor the target a jump host's.
    func testEachHopLearnsItsOwnRotationInItsOwnFile() throws {
        try addChain()
        let plan = try SSHPlan.load(database, name: "app", snippetName: nil)
        XCTAssertEqual(plan.hops.map { $0.rotation?.count }, [1, nil, 1], "inner's host key is unknown: nothing to learn from")
        var paths = SSHSessionConfig.Paths()
        paths.rotationFiles = ["app": folder + "/hop1-known_hosts", "outer": folder + "/hop2-known_hosts"]
        let config = SSHSessionConfig(hostbookPath: "/usr/local/bin/hostbook", databasePath: databasePath, noInput: true)
        let file = folder + "/ssh_config"
        try Data(try config.render(plan, paths: paths).utf8).write(to: URL(fileURLWithPath: file))
        let app = try sshG(file, "app"), inner = try sshG(file, "inner"), outer = try sshG(file, "outer")
        XCTAssertEqual(app["userknownhostsfile"], [folder + "/hop1-known_hosts"])
        XCTAssertEqual(app["updatehostkeys"], ["true"])
        XCTAssertEqual(outer["userknownhostsfile"], [folder + "/hop2-known_hosts"])
        XCTAssertEqual(outer["updatehostkeys"], ["true"])
        XCTAssertEqual(inner["userknownhostsfile"], ["none"])
        XCTAssertEqual(inner["updatehostkeys"], ["false"])
        XCTAssertEqual(app["knownhostscommand"], outer["knownhostscommand"], "first use, changed and revoked keys stay hostbook's")

        let appRows = try XCTUnwrap(plan.hops[0].rotation), outerRows = try XCTUnwrap(plan.hops[2].rotation)
        XCTAssertEqual(HostKeyRotation.knownHostsText(appRows).split(separator: " ").first, "[app.test]:2222", "the entry's own form")
        let newKey = try PrivateKeyGenerator.generate(.ecdsa, bits: nil, comment: "").publicKey
        let newLine = "[app.test]:2222 \(newKey.line(comment: ""))\n"
        // outer's file holding a line for the target (never written by outer's ssh) teaches outer nothing.
        let outerLearned = try SSHHostKeyRotation.learn(database: { self.database }, hop: plan.hops[2],
                                                        fileText: HostKeyRotation.knownHostsText(outerRows) + newLine)
        XCTAssertEqual(outerLearned?.outcome, .unchanged)
        XCTAssertEqual(try KnownHostsStore(database: database).entries(matching: HostLookupName(host: "app.test", port: 2222)).count, 1)
        // app's own file: the proven key is learned for app.test port 2222 only.
        let appLearned = try SSHHostKeyRotation.learn(database: { self.database }, hop: plan.hops[0],
                                                      fileText: HostKeyRotation.knownHostsText(appRows) + newLine)
        XCTAssertEqual(appLearned?.outcome, .learned(added: [newKey], retired: []))
        XCTAssertEqual(try KnownHostsStore(database: database).entries(matching: HostLookupName(host: "app.test", port: 2222)).count, 2)
        XCTAssertEqual(try KnownHostsStore(database: database).entries(matching: HostLookupName(host: "outer.test")).count, 1)
        XCTAssertNil(try SSHHostKeyRotation.learn(database: { self.database }, hop: plan.hops[1], fileText: newLine), "inner had no file")
    }

    /// A first use approved on the terminal (SSHHostKeyRotation.learnsOnFirstUse): the hop no
    /// entry matches gets an empty file, `StrictHostKeyChecking ask` and the lookup with
    /// --ssh-confirms; ssh's own question is answered yes only for a key the store trusts for
    /// exactly that hop's name (SSHFirstUseConfirmation); the keys ssh then writes are learned
    /// and nothing is retired.
    func testAFirstUseIsConfirmedFromTheStoreAndLearnsWhatSSHProved() throws {
        try addChain()
        let plan = try SSHPlan.load(database, name: "app", snippetName: nil)
        XCTAssertEqual(plan.hops.map(\.learnsOnFirstUse), [false, true, false], "only inner has no entry for its name")
        var paths = SSHSessionConfig.Paths()
        paths.rotationFiles = ["inner": folder + "/hop1-known_hosts"]
        paths.firstUseHops = ["inner"]
        let config = SSHSessionConfig(hostbookPath: "/usr/local/bin/hostbook", databasePath: databasePath, noInput: false)
        let file = folder + "/ssh_config"
        try Data(try config.render(plan, paths: paths).utf8).write(to: URL(fileURLWithPath: file))
        let inner = try sshG(file, "inner"), app = try sshG(file, "app")
        XCTAssertEqual(inner["stricthostkeychecking"], ["ask"])
        XCTAssertEqual(inner["updatehostkeys"], ["true"])
        XCTAssertEqual(inner["fingerprinthash"], ["SHA256"])
        XCTAssertEqual(inner["batchmode"], ["no"], "ssh would refuse its own question")
        XCTAssertTrue(inner["knownhostscommand"]?.first?.contains("known-hosts lookup --ssh-confirms") == true, "\(inner)")
        XCTAssertEqual(app["stricthostkeychecking"], ["true"])
        XCTAssertFalse(app["knownhostscommand"]?.first?.contains("--ssh-confirms") == true)

        let hostKey = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "").publicKey
        func question(_ name: String, _ fingerprint: String) -> String {
            "The authenticity of host '\(name) (\(name))' can't be established.\nED25519 key fingerprint is \(fingerprint).\n"
                + "This key is not known by any other names.\nAre you sure you want to continue connecting (yes/no/[fingerprint])? "
        }
        let confirmation = SSHFirstUseConfirmation(database: database, lookups: [HostLookupName(host: "10.0.0.7")])
        XCTAssertEqual(SSHFirstUseConfirmation.question(question("10.0.0.7", hostKey.sha256Fingerprint)),
                       SSHFirstUseConfirmation.Question(name: "10.0.0.7", fingerprint: hostKey.sha256Fingerprint))
        XCTAssertNil(confirmation.answer("ops@10.0.0.7's password: "), "not a host-key question")
        XCTAssertEqual(confirmation.answer(question("10.0.0.7", hostKey.sha256Fingerprint)), "no", "not approved yet")
        XCTAssertTrue(try KnownHostsStore(database: database).approve(HostLookupName(host: "10.0.0.7"), key: hostKey, source: "tofu"))
        XCTAssertEqual(confirmation.answer(question("10.0.0.7", hostKey.sha256Fingerprint)), "yes")
        XCTAssertEqual(confirmation.answer(question("10.0.0.7", "SHA256:" + String(repeating: "A", count: 43))), "no", "another key")
        XCTAssertEqual(confirmation.answer(question("[app.test]:2222", hostKey.sha256Fingerprint)), "no", "not a first-use hop")

        let newKey = try PrivateKeyGenerator.generate(.ecdsa, bits: nil, comment: "").publicKey
        XCTAssertNil(try SSHHostKeyRotation.learn(database: { self.database }, hop: plan.hops[1], fileText: "", firstUse: true),
                     "ssh wrote nothing: the first use was refused")
        let learned = try SSHHostKeyRotation.learn(database: { self.database }, hop: plan.hops[1],
                                                   fileText: "10.0.0.7 \(hostKey.line(comment: ""))\n10.0.0.7 \(newKey.line(comment: ""))\n", firstUse: true)
        XCTAssertEqual(learned?.outcome, .learned(added: [newKey], retired: []))
        XCTAssertEqual(try KnownHostsStore(database: database).entries(matching: HostLookupName(host: "10.0.0.7")).count, 2)
    }

    /// ssh options that could let ssh write the file outside UpdateHostKeys (a first-use key
    /// with accept-new) or take it away turn learning off for the session.
    func testOptionsThatCouldLetSSHTrustOnItsOwnTurnLearningOff() {
        XCTAssertTrue(SSHHostKeyRotation.allowed(sshArguments: []))
        XCTAssertTrue(SSHHostKeyRotation.allowed(sshArguments: ["-t", "-o", "LogLevel=QUIET", "uptime"]))
        for arguments in [["-o", "StrictHostKeyChecking=accept-new"], ["-oStrictHostKeyChecking no"], ["-o", "UserKnownHostsFile=/tmp/k"],
                          ["-o", "updatehostkeys=no"], ["-o", "GlobalKnownHostsFile /etc/k"], ["-o", "KnownHostsCommand=/bin/true"]] {
            XCTAssertFalse(SSHHostKeyRotation.allowed(sshArguments: arguments), "\(arguments)")
        }
    }

    func testAJumpChainThatLoopsIsRefused() throws {
        try database.addHost(NewHost(name: "a", hostname: "a.test"))
        try database.addHost(NewHost(name: "b", hostname: "b.test", jump: "a"))
        try database.addHost(NewHost(name: "c", hostname: "c.test", jump: "b"))
        // HostStore refuses a loop; an older hostbook or sqlite3 could write one.
        try database.connection.execute("UPDATE hosts SET jump_host_id = (SELECT id FROM hosts WHERE name = 'c') WHERE name = 'a'")
        XCTAssertThrowsError(try SSHPlan.load(database, name: "c", snippetName: nil)) { error in
            XCTAssertEqual(error as? SessionRefusal, .jumpChainLoops(host: "c", at: "c"))
        }
    }

    func testAJumpChainLongerThanTheLimitIsRefused() throws {
        // h1 → h2 → ... → h8: JumpChain.maxHosts hosts, as far as HostStore lets a chain go.
        for i in stride(from: JumpChain.maxHosts, through: 1, by: -1) {
            try database.addHost(NewHost(name: "h\(i)", hostname: "h\(i).test", jump: i == JumpChain.maxHosts ? nil : "h\(i + 1)"))
        }
        XCTAssertEqual(try SSHPlan.load(database, name: "h1", snippetName: nil).hops.count, JumpChain.maxHosts)
        let last = JumpChain.maxHosts + 1
        try database.addHost(NewHost(name: "h\(last)", hostname: "h\(last).test"))
        try database.connection.execute("UPDATE hosts SET jump_host_id = (SELECT id FROM hosts WHERE name = 'h\(last)') WHERE name = 'h\(last - 1)'")
        XCTAssertThrowsError(try SSHPlan.load(database, name: "h1", snippetName: nil)) { error in
            XCTAssertEqual(error as? SessionRefusal, .jumpChainTooLong(host: "h1"))
        }
        XCTAssertEqual(try SSHPlan.load(database, name: "h2", snippetName: nil).hops.count, JumpChain.maxHosts,
                       "a host further along still has a chain within the limit")
    }

    func testAKeyRemovedAfterItsHostWasReadIsRefused() throws {
        let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "gone")
        _ = try KeyStore(database: database).insert(NewKey(uuid: UUIDString.random(), name: "gone", publicKey: key.publicKey,
                                                           comment: "gone", format: "openssh"))
        try database.addHost(NewHost(name: "web", hostname: "web.test", key: "gone"))
        let read = try XCTUnwrap(try database.host(named: "web"))
        // Another hostbook, meanwhile: the host lets go of the key, and the key is removed.
        var changes = HostChanges()
        changes.key = .clear
        try database.editHost("web", changes)
        XCTAssertNotNil(try KeyStore(database: database).remove(name: "gone"))
        XCTAssertThrowsError(try SSHPlan.hops([read], in: database)) { error in
            XCTAssertEqual(error as? SessionRefusal, .hostKeyMissing(key: "gone", host: "web"))
        }
    }

    func testAMissingHostOrSnippetOrDatabaseIsNotFound() throws {
        try database.addHost(NewHost(name: "web", hostname: "web.test"))
        let refusals: [(String, String, String?, SessionRefusal)] = [
            (databasePath, "nope", nil, .hostNotFound(name: "nope", nearest: nil)),
            (databasePath, "webb", nil, .hostNotFound(name: "webb", nearest: "web")),
            (databasePath, "web", "nope", .snippetNotFound(name: "nope")),
            (folder + "/none.db", "web", nil, .hostNotFound(name: "web", nearest: nil))]
        for (path, name, snippet, refusal) in refusals {
            XCTAssertThrowsError(try SSHPlan.load(try HostDatabase.openForReading(path: path), name: name, user: nil, snippetName: snippet)) { error in
                XCTAssertEqual(error as? SessionRefusal, refusal)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/none.db"), "reading creates no database")
        XCTAssertThrowsError(try SSHPlan.load(database, name: "bad\u{1b}[2Jname", snippetName: nil)) { error in
            XCTAssertEqual(error as? SessionRefusal, .hostNotFound(name: "bad\u{1b}[2Jname", nearest: nil),
                           "the name is kept raw: the executable escapes it when it prints it")
        }
    }

    // MARK: ssh -G

    /// `ssh -G -F CONFIG ALIAS`: keyword → its values, as ssh resolved them.
    private func sshG(_ config: String, _ alias: String) throws -> [String: [String]] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh") else { throw XCTSkip("ssh is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh")
        process.arguments = ["-G", "-F", config, "--", alias]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, errors)
        var values: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            values[String(parts[0]), default: []].append(parts.count > 1 ? String(parts[1]) : "")
        }
        return values
    }
}
