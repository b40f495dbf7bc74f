// The installed configuration writes each host's own lines in its block and the lines every
// host shares once per group of names (StandingSSHConfig, issue 32: ssh parses every line of
// the file on every start). The real `ssh -G` is the oracle: every saved name and alias —
// ports, users, jump hosts, keys, a certificate, a zone-index hostname (its known_hosts file
// named in its own block, not by the shared line of ssh's tokens), hosts in the second and
// third group — resolves to exactly the settings of a file in which each host's block holds
// all its lines (SSHHostBlock.write, the session configuration's writer), with the
// user's own configuration after the Include as it is installed. Names that are not one
// literal host name (a pattern, a negation, a list) are on no Host line, so they cannot make
// the shared lines apply to another host; a name the user's configuration defines stays the
// user's. Host-key rotation turned off for a host changes no line of the file (it removes the
// host's kept known_hosts file: KeptKnownHosts), so it needs no case of its own here.
import Foundation
import XCTest
@testable import HostStore
import KeyFormats
import Sessions
import SSHConfig
import TestSupport

final class InstalledSSHConfigSharedLinesTests: XCTestCase {
    private var folder: TempFolder!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh"), Tool.sshKeygen != nil else { throw XCTSkip("ssh is not installed") }
        folder = try TempFolder()
        try FileManager.default.createDirectory(atPath: folder.file(".ssh"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() { folder = nil }

    func testEveryHostResolvesAsWithTheLinesInItsOwnBlock() throws {
        let databasePath = folder.file("hostbook.db")
        let database = try HostDatabase.open(path: databasePath)
        let keys = KeyStore(database: database)
        for name in ["web-key", "db-key"] {
            let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: name)
            _ = try keys.insert(NewKey(uuid: UUIDString.random(), name: name, publicKey: key.publicKey, comment: name, format: "openssh"))
        }
        // web-key gets a user certificate (CertificateFile).
        XCTAssertEqual(try Tool.run(Tool.sshKeygen!, ["-q", "-t", "ed25519", "-N", "", "-f", folder.file("ca")]).status, 0)
        let webKey = try XCTUnwrap(try keys.find(name: "web-key"))
        try Data((webKey.publicKey.line(comment: "web-key") + "\n").utf8).write(to: URL(fileURLWithPath: folder.file("web-key.pub")))
        XCTAssertEqual(try Tool.run(Tool.sshKeygen!, ["-q", "-s", folder.file("ca"), "-I", "web@test", "-n", "alice", folder.file("web-key.pub")]).status, 0)
        guard case .certificate(let certificate, _) = try PublicKeyFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder.file("web-key-cert.pub"))))) else {
            return XCTFail("ssh-keygen wrote no certificate")
        }
        try KeyCertificates(database: database).attach(certificate, to: webKey)

        try database.addHost(NewHost(name: "web", hostname: "web.test", port: 2200, user: "alice", key: "web-key", aliases: ["w", "mine-too"]))
        try database.addHost(NewHost(name: "db", hostname: "db.test", user: "pg", key: "db-key", jump: "web", aliases: ["d"]))
        try database.addHost(NewHost(name: "zone", hostname: "fe80::1%eth0", port: 2222))
        try database.addHost(NewHost(name: "mine", hostname: "saved.test"))
        for i in 0..<450 {
            try database.addHost(NewHost(name: "host-\(i)", hostname: "host-\(i).test", port: 22 + i % 3, user: i % 2 == 0 ? "u\(i)" : nil,
                                         jump: i % 10 == 9 ? "db" : nil, aliases: i % 50 == 0 ? ["a\(i)"] : []))
        }
        // Names that are not one literal host name, as a database from elsewhere could hold them.
        for (i, hostile) in ["host-*", "!web", "host-1,host-2", "host-3 host-4", "*"].enumerated() {
            try database.addHost(NewHost(name: "hostile-\(i)", hostname: "evil.test", port: 2022))
            try database.connection.execute("UPDATE hosts SET name = '\(hostile)' WHERE name = 'hostile-\(i)'")
        }
        try Data("Host mine mine-too\n    HostName mine.test\n".utf8).write(to: URL(fileURLWithPath: folder.file(".ssh/config")))

        let installation = SSHConfigInstallation(home: folder.path, environment: ["XDG_CONFIG_HOME": folder.file("config")])
        let socket = folder.file("agent.sock")
        let block = SSHHostBlock(hostbookPath: "/usr/local/bin/hostbook", databasePath: databasePath, noInput: false)
        let rendered = try installation.render(database: try HostDatabase.openForReading(path: databasePath), block: block, agentSocket: socket)
        XCTAssertEqual(rendered.written.count, 453, "every saved host but the user's 'mine' and the five hostile names")
        XCTAssertEqual(rendered.names.flatMap { $0 }.count, 453 + 1 + 1 + 9, "w, d and a0 ... a400 (mine-too is the user's)")

        // The former file: each host's block with every line (the session configuration's
        // writer), in the same order, IdentityAgent for a host without a key.
        var former = StandingSSHConfig.header
        let hosts = Dictionary(uniqueKeysWithValues: try database.hosts().map { ($0.name, $0) })
        for (index, name) in rendered.written.enumerated() {
            let host = try XCTUnwrap(hosts[name])
            var identity: SSHHostBlock.Identity?
            if let keyName = host.key, let key = try keys.find(name: keyName) {
                identity = SSHHostBlock.Identity(agentSocket: socket, publicKeyFile: installation.keysFolder + "/" + StandingSSHConfig.fileName(for: key) + ".pub",
                                                 certificateFile: key.certificate.map { _ in installation.keysFolder + "/" + StandingSSHConfig.certificateFileName(for: key) })
            }
            var w = SSHConfigWriter()
            try block.write(&w, host: host, alias: name, aliases: Array(rendered.names[index].dropFirst()), jumpAlias: host.jump, identity: identity,
                            rotationFile: installation.knownHosts.path(for: HostLookupName(host: host.hostname, port: host.port)))
            if identity == nil { try w.set("IdentityAgent", socket) }
            former += "\n" + w.text
        }

        // Installed as `ssh-config --install` does: the file, the Include first in
        // ~/.ssh/config, the user's own lines after it.
        try FileManager.default.createDirectory(atPath: installation.folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let userLines = "Host mine mine-too\n    HostName mine.test\nHost *\n    User fallback\n    Port 2222\n    IdentityAgent /elsewhere.sock\n"
            + "    UserKnownHostsFile /elsewhere/known_hosts\n    StrictHostKeyChecking no\n    UpdateHostKeys no\n    ForwardAgent yes\n"
        try Data((try installation.includeLine() + userLines).utf8).write(to: URL(fileURLWithPath: installation.userConfig))
        let formerFile = folder.file("former_ssh_config")
        try Data((former + (try installation.addedInclude())).utf8).write(to: URL(fileURLWithPath: formerFile))
        try Data(("Include \(formerFile)\n" + userLines).utf8).write(to: URL(fileURLWithPath: folder.file(".ssh/former")))
        try Data((rendered.text + (try installation.addedInclude())).utf8).write(to: URL(fileURLWithPath: installation.generated))

        var names = rendered.names.flatMap { $0 }.filter { !$0.hasPrefix("host-") || ["host-0", "host-9", "host-199", "host-200", "host-449"].contains($0) }
        names += ["mine", "mine-too", "unsaved", "host-", "evil.test"]
        for name in names {
            let now = try sshG(installation.userConfig, name), before = try sshG(folder.file(".ssh/former"), name)
            XCTAssertEqual(now, before, "ssh -G \(name)")
        }

        let web = try sshG(installation.userConfig, "w")
        XCTAssertTrue(web.contains("\nhostname web.test\n") && web.contains("\nport 2200\n") && web.contains("\nuser alice\n"), web)
        XCTAssertTrue(web.contains("\ncertificatefile \(installation.keysFolder)/\(webKey.uuid).cert.pub\n"), web)
        XCTAssertTrue(web.contains("\nidentityagent \(socket)\n") && web.contains("\nupdatehostkeys true\n"), web)
        XCTAssertTrue(web.contains("\nuserknownhostsfile \(installation.knownHosts.path(for: HostLookupName(host: "web.test", port: 2200)))\n"), web)
        let late = try sshG(installation.userConfig, "host-449")
        XCTAssertTrue(late.contains("\nknownhostscommand /usr/local/bin/hostbook --db \(databasePath) known-hosts lookup "), "a host of the third group: \(late)")
        XCTAssertTrue(late.contains("\nproxyjump db\n"), late)
        for name in ["mine", "mine-too", "unsaved", "host-"] {
            let theirs = try sshG(installation.userConfig, name)
            XCTAssertFalse(theirs.contains("knownhostscommand"), "\(name) takes none of hostbook's shared lines: \(theirs)")
        }

        // The file: the shared lines once per group, a host's block only its own.
        XCTAssertEqual(rendered.text.components(separatedBy: "KnownHostsCommand").count - 1, 3, "464 names: three groups")
        XCTAssertEqual(rendered.blocks[rendered.written.firstIndex(of: "host-1")!], "Host host-1\n    HostName host-1.test\n    Port 23\n",
                       "its known_hosts file is named by the shared line of ssh's tokens")
        XCTAssertEqual(rendered.blocks[rendered.written.firstIndex(of: "zone")!], "Host zone\n    HostName fe80::1%%eth0\n    Port 2222\n"
                       + "    UserKnownHostsFile \(installation.knownHosts.path(for: HostLookupName(host: "fe80::1%eth0", port: 2222)))\n",
                       "a host name the tokens cannot name: a line of its own")
        let zone = try sshG(installation.userConfig, "zone")
        XCTAssertTrue(zone.contains("\nuserknownhostsfile \(installation.knownHosts.path(for: HostLookupName(host: "fe80::1%eth0", port: 2222)))\n"), zone)
        for line in rendered.text.split(separator: "\n") where line.hasPrefix("Host ") {
            for word in line.split(separator: " ").dropFirst() {
                XCTAssertNoThrow(try SSHConfigWriter.checkAlias(String(word)), "one literal name on every Host line")
            }
        }
    }

    /// `ssh -G -F CONFIG NAME`'s output, as it is.
    private func sshG(_ config: String, _ name: String) throws -> String {
        let run = try Tool.run("/usr/bin/ssh", ["-G", "-F", config, "--", name])
        XCTAssertEqual(run.status, 0, "ssh -G \(name): \(run.stderr)")
        return run.stdout
    }
}
