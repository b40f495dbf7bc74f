// The installed configuration's kept known_hosts files (KeptKnownHosts), in-process on a
// real SQLite store: a file exists exactly while the rotation rules let ssh learn and then
// holds what the store trusts for the name; ssh's edits (written here as ssh writes them)
// are taken under HostKeyRotation's rules; a file hostbook did not write last, or one that
// is not a private regular file of the user within bounds, teaches nothing.
import Foundation
import XCTest
@testable import HostStore
import KeyFormats
import Sessions
import TestSupport

final class KeptKnownHostsTests: XCTestCase {
    private var folder: String!
    private var store: KnownHostsStore!
    private var files: KeptKnownHosts!
    private let lookup = HostLookupName(host: "web.test", port: 2222)
    private var keys: [PublicKey] = []

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kept-known-hosts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        store = KnownHostsStore(database: try HostDatabase.open(path: folder + "/hostbook.db"))
        files = SSHConfigInstallation(home: folder, environment: ["XDG_CONFIG_HOME": folder + "/config"]).knownHosts
            .keptFor(database: folder + "/hostbook.db")
        keys = try (0..<3).map { _ in try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "").publicKey }
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    @discardableResult
    private func reconcile() throws -> HostKeyRotation.Outcome? {
        try files.reconcile(lookup, store: store, writableStore: { self.store }, salt: { Array(repeating: 7, count: HashedHostName.saltLength) }).outcome
    }

    private var kept: String? { try? String(contentsOfFile: files.path(for: lookup), encoding: .utf8) }
    private func line(_ key: PublicKey) -> String { "[web.test]:2222 \(key.type) \(key.base64)\n" }
    private func sshWrites(_ text: String) throws {
        // As ssh's hostfile_replace_entries: a new file renamed over the old one, the old one kept as `.old`.
        let path = files.path(for: lookup)
        try FileManager.default.copyItem(atPath: path, toPath: path + ".old")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + ".tmp"))
        XCTAssertEqual(rename(path + ".tmp", path), 0)
        chmod(path, 0o600)
    }
    private func trusted() throws -> Set<String> { Set(try store.entries(matching: lookup).map(\.fingerprint)) }

    func testAFileExistsOnlyWhileTheRulesLetSSHLearnAndHoldsTheStoresEntries() throws {
        try reconcile()
        XCTAssertNil(kept, "an unknown host has no file: its first key reaches hostbook's prompt through KnownHostsCommand")
        XCTAssertEqual(try store.approve(lookup, key: keys[0], source: "manual"), true)
        try reconcile()
        XCTAssertEqual(kept, line(keys[0]))
        XCTAssertEqual(files.lookups(), [lookup])
        XCTAssertFalse(files.hasEdits())

        XCTAssertTrue(try store.setRotation(lookup, on: false))
        try reconcile()
        XCTAssertNil(kept, "turned off: no file, so ssh runs with the key from KnownHostsCommand alone")
        XCTAssertTrue(try store.setRotation(lookup, on: true))
        try reconcile()
        XCTAssertEqual(kept, line(keys[0]))

        XCTAssertTrue(try store.revoke(lookup, key: keys[1], source: "manual"))
        try reconcile()
        XCTAssertNil(kept, "an @revoked line for the name: never learned")
        XCTAssertEqual(files.lookups(), [])
    }

    func testSSHsEditsAreLearnedAndRetiredByTheRotationRules() throws {
        XCTAssertEqual(try store.approve(lookup, key: keys[0], source: "manual"), true)
        try reconcile()
        try sshWrites(line(keys[0]) + line(keys[1]))
        XCTAssertTrue(files.hasEdits())
        let elsewhere = files.keptFor(database: folder + "/another.db")
        XCTAssertEqual(elsewhere.lookups(), [], "a command on another database leaves the files alone")
        XCTAssertFalse(elsewhere.hasEdits())
        let all = try files.reconcileAll(store: store, writableStore: { self.store }, salt: { Array(repeating: 7, count: HashedHostName.saltLength) })
        guard case .learned(let added, let retired)? = all.first?.outcome else { return XCTFail("\(all)") }
        XCTAssertEqual(added.map(\.blob), [keys[1].blob])
        XCTAssertTrue(retired.isEmpty)
        XCTAssertEqual(try trusted(), [keys[0].sha256Fingerprint, keys[1].sha256Fingerprint])
        XCTAssertEqual(kept, line(keys[0]) + line(keys[1]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: files.path(for: lookup) + ".old"), "ssh's backup is removed")

        try sshWrites(line(keys[1]))
        guard case .learned(let none, let gone)? = try reconcile() else { return XCTFail() }
        XCTAssertTrue(none.isEmpty)
        XCTAssertEqual(gone.map(\.keyBlob), [keys[0].blob])
        XCTAssertEqual(try trusted(), [keys[1].sha256Fingerprint])
        XCTAssertEqual(kept, line(keys[1]))
    }

    func testAnEditIsNotTakenWhenTheStoreChangedMeanwhileOrTheFileIsNotPrivate() throws {
        XCTAssertEqual(try store.approve(lookup, key: keys[0], source: "manual"), true)
        try reconcile()
        // The store changed after the file was written (another key approved): the store wins.
        XCTAssertEqual(try store.approve(lookup, key: keys[1], source: "manual", alongside: [keys[0]]), true)
        try sshWrites(line(keys[0]) + line(keys[2]))
        XCTAssertNil(try reconcile())
        XCTAssertEqual(try trusted(), [keys[0].sha256Fingerprint, keys[1].sha256Fingerprint])
        XCTAssertEqual(kept, line(keys[0]) + line(keys[1]))

        // Writable by others: not read.
        try sshWrites(line(keys[0]) + line(keys[1]) + line(keys[2]))
        chmod(files.path(for: lookup), 0o666)
        XCTAssertNil(try reconcile())
        XCTAssertFalse(try trusted().contains(keys[2].sha256Fingerprint))

        // Larger than the bound: not read.
        try sshWrites(line(keys[0]) + line(keys[2]) + String(repeating: "#\n", count: KeptKnownHosts.maxFileSize))
        XCTAssertNil(try reconcile())
        XCTAssertFalse(try trusted().contains(keys[2].sha256Fingerprint))

        // Lines for other names and lines that do not parse teach nothing.
        try sshWrites(line(keys[0]) + line(keys[1]) + "other.test \(keys[2].type) \(keys[2].base64)\n[web.test]:2222 ssh-ed25519 !!!\n")
        XCTAssertEqual(try reconcile(), .unchanged)
        XCTAssertEqual(try trusted(), [keys[0].sha256Fingerprint, keys[1].sha256Fingerprint])
        XCTAssertEqual(kept, line(keys[0]) + line(keys[1]))
    }

    func testAHashedEntryStaysHashedInTheFileAndTheLearnedKeyIsHashedToo() throws {
        let hashed = HashedHostName(hashing: lookup.text, salt: Array(repeating: 1, count: HashedHostName.saltLength)).text
        _ = try store.importKnownHosts(Array("\(hashed) \(keys[0].type) \(keys[0].base64)\n".utf8))
        try reconcile()
        XCTAssertEqual(kept, "\(hashed) \(keys[0].type) \(keys[0].base64)\n", "the file keeps the entry's form: ssh matches it by its HMAC")
        // ssh writes the proven key hashed (HashKnownHosts yes) with its own salt.
        let sshHashed = HashedHostName(hashing: lookup.text, salt: Array(repeating: 9, count: HashedHostName.saltLength)).text
        try sshWrites(try XCTUnwrap(kept) + "\(sshHashed) \(keys[1].type) \(keys[1].base64)\n")
        guard case .learned(let added, _)? = try reconcile() else { return XCTFail() }
        XCTAssertEqual(added.map(\.blob), [keys[1].blob])
        let rows = try store.entries(matching: lookup)
        XCTAssertEqual(rows.count, 2)
        XCTAssertTrue(rows.allSatisfy { $0.kind == .hashed }, "a learned key keeps the form of the host's entries")
        XCTAssertFalse(try XCTUnwrap(kept).contains("web.test"))
    }

    func testAKeyTrustedUnderAnotherNameIsNotLearnedAndTheFileFollowsTheStore() throws {
        XCTAssertEqual(try store.approve(lookup, key: keys[0], source: "manual"), true)
        XCTAssertEqual(try store.approve(HostLookupName(host: "other.test"), key: keys[1], source: "manual"), true)
        try reconcile()
        try sshWrites(line(keys[0]) + line(keys[1]))
        guard case .notLearned(.trustedUnderAnotherName)? = try reconcile() else { return XCTFail() }
        XCTAssertEqual(try trusted(), [keys[0].sha256Fingerprint])
        XCTAssertEqual(kept, line(keys[0]), "the store wins: the file is written again from it")
    }

    func testTheInstalledFileNamesEachHostsFileWithUpdateHostKeys() throws {
        let installation = SSHConfigInstallation(home: folder, environment: ["XDG_CONFIG_HOME": folder + "/config"])
        let database = try HostDatabase.open(path: folder + "/hostbook.db")
        try database.addHost(NewHost(name: "web", hostname: "WEB.test", port: 2222))
        try database.addHost(NewHost(name: "v6", hostname: "2001:db8::1"))
        try database.addHost(NewHost(name: "api", hostname: "api-1.test", port: 2222))
        let block = SSHHostBlock(hostbookPath: "/usr/bin/hostbook", databasePath: folder + "/hostbook.db", noInput: false)
        let text = try installation.render(database: try HostDatabase.openForReading(path: folder + "/hostbook.db"), block: block, agentSocket: folder + "/agent.sock").text
        // A name of file-name-safe characters: one line of ssh's tokens names its file for
        // every such host; any other name (and a saved hostname with upper-case letters): a
        // line of its own, its file named by SHA-256 (by HOST_PORT for the upper-case one).
        let v6 = HostLookupName(host: "2001:db8::1"), api = HostLookupName(host: "api-1.test", port: 2222)
        XCTAssertEqual(files.path(for: lookup), folder + "/config/hostbook/known_hosts/web.test_2222")
        XCTAssertEqual(files.path(for: api), folder + "/config/hostbook/known_hosts/api-1.test_2222")
        XCTAssertEqual(KeptKnownHosts.fileName(v6), KeptKnownHosts.hashedFileName(v6))
        XCTAssertTrue(text.contains("    UserKnownHostsFile \(folder!)/config/hostbook/known_hosts/%h_%p\n"), text)
        XCTAssertTrue(text.contains("Host api\n    HostName api-1.test\n    Port 2222\n\n"), text)
        XCTAssertTrue(text.contains("Host v6\n    HostName 2001:db8::1\n    Port 22\n    UserKnownHostsFile \(files.path(for: v6))\n"), text)
        XCTAssertTrue(text.contains("Host web\n    HostName WEB.test\n    Port 2222\n    UserKnownHostsFile \(files.path(for: lookup))\n"), text)
        XCTAssertTrue(text.contains("UpdateHostKeys yes\n"), text)
        // ssh expands the tokens to the very file hostbook keeps.
        let config = folder + "/ssh_config"
        try Data(text.utf8).write(to: URL(fileURLWithPath: config))
        XCTAssertEqual(try sshG(config, "api")["userknownhostsfile"], files.path(for: api))
        XCTAssertEqual(try sshG(config, "web")["userknownhostsfile"], files.path(for: lookup))
        XCTAssertEqual(try sshG(config, "v6")["userknownhostsfile"], files.path(for: v6))
    }

    func testAFileAnEarlierVersionNamedBySHA256IsRemovedAndKeptUnderItsNameNow() throws {
        XCTAssertEqual(try store.approve(lookup, key: keys[0], source: "manual"), true)
        try reconcile()
        let kept = files.folder + "/" + KeptKnownHosts.fileName(lookup), base = files.baseFolder + "/" + KeptKnownHosts.fileName(lookup)
        let hashed = KeptKnownHosts.hashedFileName(lookup)
        XCTAssertNotEqual(KeptKnownHosts.fileName(lookup), hashed)
        // As an earlier version left them: only the files under the SHA-256 name, which an
        // installed file written then still names.
        XCTAssertEqual(rename(kept, files.folder + "/" + hashed), 0)
        XCTAssertEqual(rename(base, files.baseFolder + "/" + hashed), 0)
        XCTAssertEqual(files.lookups(), [lookup])
        try reconcile()
        XCTAssertFalse(FileManager.default.fileExists(atPath: files.folder + "/" + hashed), "no file ssh reads falls behind the store")
        XCTAssertFalse(FileManager.default.fileExists(atPath: files.baseFolder + "/" + hashed))
        XCTAssertEqual(self.kept, line(keys[0]))
        XCTAssertEqual(files.lookups(), [lookup])
        XCTAssertFalse(files.hasEdits())
    }

    /// `ssh -G -F CONFIG NAME`: keyword → its value.
    private func sshG(_ config: String, _ name: String) throws -> [String: String] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh") else { throw XCTSkip("ssh is not installed") }
        let run = try Tool.run("/usr/bin/ssh", ["-G", "-F", config, "--", name])
        XCTAssertEqual(run.status, 0, run.stderr)
        return Dictionary(run.stdout.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }, uniquingKeysWith: { first, _ in first })
    }
}
