// `hostbook doctor` asks ssh how it resolves a saved host through the installed
// configuration. Reading the whole generated file is ssh's cost per host (10,000 hosts: a
// 4 MB file), so doctor hands ssh the user's configuration with only that host's block in
// place of the Include (SSHConfigInstallation.probeConfig), once it has checked the file
// byte for byte. Here the real `ssh -G` is the oracle: through the probe it resolves the
// host exactly as through the real files (the user's own blocks after the Include, a file
// in added/), and the probe's size does not grow with the number of saved hosts.
import Foundation
import XCTest
@testable import HostStore
import Sessions

final class InstalledSSHConfigProbeTests: XCTestCase {
    private var folder: String!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh") else { throw XCTSkip("ssh is not installed") }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("installed-probe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// Installs the configuration for `count` hosts under `home` and returns ssh's
    /// resolution of the first host through the real files and through the probe, and the
    /// sizes of the probe and of the generated file.
    /// `label`: the home folder's name (the same length for both sizes: paths are in the probe).
    private func resolve(hosts count: Int, label: String) throws -> (whole: String, probe: String, probeSize: Int, fileSize: Int) {
        let home = folder + "/" + label
        try FileManager.default.createDirectory(atPath: home + "/.ssh", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let databasePath = home + "/hostbook.db"
        let database = try HostDatabase.open(path: databasePath)
        for i in 0..<count {
            try database.addHost(NewHost(name: "host-\(i)", hostname: "host-\(i).example", port: 22 + i % 3, user: i % 2 == 0 ? "u\(i)" : nil,
                                         jump: i % 10 == 9 ? "host-0" : nil, aliases: ["h\(i)"]))
        }
        let installation = SSHConfigInstallation(home: home, environment: ["XDG_CONFIG_HOME": home + "/config"])
        let rendered = try installation.render(database: try HostDatabase.openForReading(path: databasePath),
                                               block: SSHHostBlock(hostbookPath: "/usr/bin/hostbook", databasePath: databasePath, noInput: false),
                                               agentSocket: home + "/agent.sock")
        XCTAssertEqual(rendered.written.count, count)
        let first = try XCTUnwrap(rendered.written.first)
        let block = rendered.standalone(0)
        // The files as `ssh-config --install` and a later `add` leave them: the generated
        // file, one file in added/, and the user's own lines after the Include.
        for dir in [installation.folder, installation.addedFolder] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let generated = Data((rendered.text + (try installation.addedInclude())).utf8)
        try generated.write(to: URL(fileURLWithPath: installation.generated))
        try Data(rendered.standalone(rendered.blocks.count / 2).utf8).write(to: URL(fileURLWithPath: installation.addedFolder + "/" + SSHConfigInstallation.addedFileName(id: 1)))
        let userConfig = Array((try installation.includeLine()
            + "Host *\n    User fallback\n    ServerAliveInterval 7\n    Port 2222\nHost host-? other\n    ForwardAgent yes\n    HostName elsewhere\n").utf8)
        try Data(userConfig).write(to: URL(fileURLWithPath: installation.userConfig))

        let probe = try XCTUnwrap(try installation.probeConfig(userConfig: userConfig, block: block))
        let probeFile = home + "/probe"
        try Data(probe).write(to: URL(fileURLWithPath: probeFile))
        XCTAssertNil(try installation.probeConfig(userConfig: Array("Host x\n".utf8) + userConfig, block: block),
                     "no probe when the Include is not the first line")
        return (try sshG(installation.userConfig, first), try sshG(probeFile, first), probe.count, generated.count)
    }

    func testTheProbeResolvesAHostAsTheWholeFileDoesAndDoesNotGrowWithTheHosts() throws {
        let small = try resolve(hosts: 10, label: "small")
        let large = try resolve(hosts: 200, label: "large")
        for r in [small, large] {
            XCTAssertEqual(r.probe, r.whole, "ssh -G through the probe and through the installed files")
            XCTAssertTrue(r.whole.contains("\nknownhostscommand /usr/bin/hostbook "), r.whole)
            XCTAssertTrue(r.whole.contains("\nforwardagent yes\n"), "the user's own block after the Include still counts")
            XCTAssertTrue(r.whole.contains("\nhostname host-0.example\n"), "the first value wins: hostbook's")
        }
        print("probe \(small.probeSize) → \(large.probeSize) bytes; generated file \(small.fileSize) → \(large.fileSize) bytes")
        XCTAssertEqual(small.probeSize, large.probeSize)
        XCTAssertGreaterThan(large.fileSize, 10 * small.fileSize, "the file grows with the hosts (20 times as many), the probe does not")
    }

    /// `ssh -G -F CONFIG ALIAS`'s output.
    private func sshG(_ config: String, _ alias: String) throws -> String {
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
        return text
    }
}
