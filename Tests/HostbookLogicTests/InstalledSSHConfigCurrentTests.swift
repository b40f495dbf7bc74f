// `doctor` says whether the installed ssh configuration is what hostbook would write now
// (InstalledSSHConfig.isCurrent). After an `add`, the generated file and the host's file in
// `added/` are compared as hosts' own blocks and the names under the lines every host shares
// (StandingSSHConfig's groups; an added file holds its host's own): current as written, and
// stale as soon as a shared line or a name under them differs. In-process, on real files.
import Foundation
@testable import hostbook
import XCTest

final class InstalledSSHConfigCurrentTests: XCTestCase {
    func testTheAddedFileIsCurrentUntilItsSharedLinesOrItsNamesDiffer() throws {
        let fx = try InProcessCommand()
        let runtime = fx.folder.file("run")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: fx.folder.file("home/.ssh"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        fx.environment["XDG_RUNTIME_DIR"] = runtime
        for i in 0..<3 { try fx.ok("add", "h\(i)", "--hostname", "h\(i).test") }
        try fx.ok("ssh-config", "--install")
        try fx.ok("add", "late", "--hostname", "late.test", "--alias", "lt")
        let added = fx.folder.file("home/.config/hostbook/added")
        let names = try FileManager.default.contentsOfDirectory(atPath: added)
        XCTAssertEqual(names.count, 1)
        let file = added + "/" + names[0]
        let written = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(written.hasPrefix("Host late lt\n    HostName late.test\n"), written)
        XCTAssertTrue(written.contains("\n\nHost late lt\n    KnownHostsCommand "), "the host's own block, then the shared lines for its names: \(written)")

        func stale() throws -> Bool {
            let doctor = try fx.call(["doctor", "--json"])
            let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: doctor.stdoutBytes) as? [String: Any], doctor.stderr)
            let findings = try XCTUnwrap(report["findings"] as? [[String: Any]])
            return findings.contains { $0["check"] as? String == "ssh-config.stale" }
        }
        XCTAssertFalse(try stale(), "as written")
        for changed in [written.replacingOccurrences(of: "CheckHostIP no", with: "CheckHostIP yes"),
                        written.replacingOccurrences(of: "\n\nHost late lt\n", with: "\n\nHost late\n"),
                        written.replacingOccurrences(of: "\n\nHost late lt\n", with: "\n\nHost late lt h0\n")] {
            XCTAssertNotEqual(changed, written)
            try Data(changed.utf8).write(to: URL(fileURLWithPath: file))
            XCTAssertTrue(try stale(), changed)
        }
        try Data(written.utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertFalse(try stale(), "written back")
    }
}
