// The installed ssh configuration's content, made in-process from a real SQLite database
// and a real ~/.ssh/config in a private folder: which saved hosts it holds (jump hosts
// first, by alias), which it leaves out and why (a name the user's own Host line defines,
// a host whose jump host is left out, a loop), and that the real `ssh -G -F` resolves a
// held host to hostbook's settings. No hostbook binary runs.
import Foundation
import XCTest
@testable import HostStore
import KeyFormats
import Sessions

final class InstalledSSHConfigTests: XCTestCase {
    private var folder: String!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("installed-config-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/.ssh", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    func testHostsAreHeldOrLeftOutWithTheReason() throws {
        let databasePath = folder + "/hostbook.db"
        let database = try HostDatabase.open(path: databasePath)
        let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "web-key")
        _ = try KeyStore(database: database).insert(NewKey(uuid: UUIDString.random(), name: "web-key", publicKey: key.publicKey,
                                                           comment: "web-key", format: "openssh"))
        try database.addHost(NewHost(name: "web", hostname: "web.test", key: "web-key"))
        try database.addHost(NewHost(name: "db", hostname: "db.test", user: "pg", jump: "web"))
        try database.addHost(NewHost(name: "gitlab", hostname: "gitlab.test"))
        try database.addHost(NewHost(name: "behind", hostname: "behind.test", jump: "gitlab"))
        try database.addHost(NewHost(name: "x", hostname: "x.test"))
        try database.addHost(NewHost(name: "y", hostname: "y.test", jump: "x"))
        try database.connection.execute("UPDATE hosts SET jump_host_id = (SELECT id FROM hosts WHERE name = 'y') WHERE name = 'x'")
        try Data("Host other gitlab\n  HostName mine.test\n".utf8).write(to: URL(fileURLWithPath: folder + "/.ssh/config"))

        let installation = SSHConfigInstallation(home: folder, environment: ["XDG_CONFIG_HOME": folder + "/config"])
        XCTAssertEqual(installation.generated, folder + "/config/hostbook/ssh_config")
        XCTAssertEqual(try installation.includeLine(), "Include \(folder!)/config/hostbook/ssh_config\n")
        let socket = folder + "/agent.sock"
        let rendered = try installation.render(database: try HostDatabase.openForReading(path: databasePath),
                                               block: SSHHostBlock(hostbookPath: "/usr/local/bin/hostbook", databasePath: databasePath, noInput: false),
                                               agentSocket: socket)
        XCTAssertEqual(rendered.written, ["web", "db"], "a jump host before the hosts jumping through it")
        XCTAssertEqual(rendered.clashes.map(\.host), ["gitlab"])
        XCTAssertEqual(rendered.clashes.first?.place, "'\(folder!)/.ssh/config' line 1")
        XCTAssertEqual(rendered.warnings, [
            "skipped host 'gitlab': '\(folder!)/.ssh/config' line 1 has your own Host block for it, which hostbook leaves in charge",
            "skipped host 'behind': its jump host 'gitlab' is left out for your own Host block",
            "skipped host 'x': its jump hosts form a loop",
            "skipped host 'y': its jump hosts form a loop",
        ])
        let keyFile = folder + "/config/hostbook/keys/web-key.pub"
        XCTAssertEqual(rendered.publicKeyFiles, [keyFile: key.publicKey.line(comment: "web-key") + "\n"])
        XCTAssertTrue(rendered.text.hasPrefix(StandingSSHConfig.header))

        let config = folder + "/ssh_config"
        try Data(rendered.text.utf8).write(to: URL(fileURLWithPath: config))
        let db = try sshG(config, "db")
        XCTAssertEqual(db["hostname"], ["db.test"])
        XCTAssertEqual(db["user"], ["pg"])
        XCTAssertEqual(db["proxyjump"], ["web"])
        XCTAssertEqual(db["identityagent"], [socket], "a host without a key still uses the standing agent")
        XCTAssertEqual(db["knownhostscommand"], ["/usr/local/bin/hostbook --db \(databasePath) known-hosts lookup %I %H %h %p %t %K %n"])
        let web = try sshG(config, "web")
        XCTAssertEqual(web["identityfile"], [String(keyFile.dropLast(".pub".count))], "the .pub file names the key without ever being read as a private key")
        XCTAssertEqual(web["identitiesonly"], ["yes"])
    }

    func testAnIncludeOfTheUserConfigurationThatIsAFIFOIsRefusedWithoutBlocking() throws {
        try Data("Include \(folder!)/fifo\n".utf8).write(to: URL(fileURLWithPath: folder + "/.ssh/config"))
        XCTAssertEqual(mkfifo(folder + "/fifo", 0o600), 0)
        let installation = SSHConfigInstallation(home: folder, environment: [:])
        XCTAssertThrowsError(try installation.render(database: try HostDatabase.openForReading(path: folder + "/none.db"),
                                                     block: SSHHostBlock(hostbookPath: "/h", databasePath: folder + "/none.db", noInput: false),
                                                     agentSocket: folder + "/agent.sock")) { error in
            XCTAssertEqual(error as? SessionRefusal, .userSSHConfigUnreadable(file: folder + "/fifo", line: 0, reason: "cannot be read: it is not a regular file", tooLarge: false))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/none.db"), "reading creates no database")
    }

    /// `ssh -G -F CONFIG ALIAS`: keyword → its values, as ssh resolved them.
    private func sshG(_ config: String, _ alias: String) throws -> [String: [String]] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh") else { throw XCTSkip("ssh is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh")
        process.arguments = ["-G", "-F", config, "--", alias]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        var values: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            values[String(parts[0]), default: []].append(parts.count > 1 ? String(parts[1]) : "")
        }
        return values
    }
}
