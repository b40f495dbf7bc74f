// The writer's quoting, checked against what ssh itself reads back (`ssh -G`).
import XCTest
import SSHConfig
import TestSupport

final class SSHConfigWriterTests: XCTestCase {
    func testPlainValuesStayBare() throws {
        XCTAssertEqual(try SSHConfigWriter.quote("example.com"), "example.com")
        XCTAssertEqual(try SSHConfigWriter.quote("/run/user/0/hostbook/agent-1.sock"), "/run/user/0/hostbook/agent-1.sock")
    }

    func testSpecialCharactersAreQuoted() throws {
        XCTAssertEqual(try SSHConfigWriter.quote("/tmp/a b"), "\"/tmp/a b\"")
        XCTAssertEqual(try SSHConfigWriter.quote("/tmp/back\\slash"), "\"/tmp/back\\\\slash\"")
        XCTAssertEqual(try SSHConfigWriter.quote("it's"), "\"it's\"")
        XCTAssertEqual(try SSHConfigWriter.quote("a#b"), "\"a#b\"")
    }

    func testRefusesWhatCannotBeExpressed() {
        for bad in ["a\"b", "a\nb", "a\rb", "tab\u{1}", "", "del\u{7f}"] {
            XCTAssertThrowsError(try SSHConfigWriter.quote(bad), "\(bad.debugDescription)")
        }
        for alias in ["web*", "a?b", "!x", "a,b", "two words", "-oProxyCommand", "", "x%y", "q\""] {
            XCTAssertThrowsError(try SSHConfigWriter.checkAlias(alias), alias)
        }
        XCTAssertNoThrow(try SSHConfigWriter.checkAlias("web-1.example.com"))
    }

    func testHostBlocksAndPercent() throws {
        var w = SSHConfigWriter()
        try w.host("web")
        try w.set("HostName", "10.0.0.5")
        try w.set("IdentityAgent", SSHConfigWriter.escapingPercent("/tmp/50%/s"))
        w.matchAll()
        try w.set("Include", "~/.ssh/config")
        XCTAssertEqual(w.text, "Host web\n    HostName 10.0.0.5\n    IdentityAgent /tmp/50%%/s\n\nMatch all\n    Include ~/.ssh/config\n")
    }

    /// ssh -G reads back every quoted word exactly.
    func testSSHReadsBackTheWords() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh") else { throw XCTSkip("no ssh") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hb-writer-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tricky = ["/tmp/a b", "/tmp/back\\slash", "/tmp/it's", "/tmp/h#sh", "/tmp/eq=x"]
        var w = SSHConfigWriter()
        try w.host("probe")
        try w.set("HostName", "127.0.0.1")
        try w.set("User", "some user")
        try w.set("UserKnownHostsFile", words: tricky)
        let file = dir.appendingPathComponent("config")
        try Data(w.text.utf8).write(to: file)
        let (_, text) = try Tool.output("/usr/bin/ssh", ["-G", "-F", file.path, "probe"])
        XCTAssertTrue(text.contains("\nuser some user\n"), text)
        XCTAssertTrue(text.contains("\nuserknownhostsfile \(tricky.joined(separator: " "))\n"), text)
    }
}
