// docs/json.md ("JSON output") is the contract of every `--json`, in-process
// (InProcessCommand runs Hostbook.main): the document is complete (every object it names
// has its block, every command of the table is listed and nothing else), and every host
// source is documented. Moved from HostbookTests/JSONDocumentTests, which runs every
// command with --json on the binary and holds each output to the document.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class JSONDocumentLogicTests: XCTestCase {
    typealias FieldType = JSONDocumentContract.FieldType

    func testTheDocumentIsComplete() throws {
        let doc = try JSONDocumentContract.readDocument()
        XCTAssertGreaterThan(doc.objects.count, 20)
        func check(_ t: FieldType, _ context: String) {
            switch t {
            case .array(let e): check(e, context)
            case .object(let name): XCTAssertNotNil(doc.objects[name], "\(context): no json-object block '\(name)'")
            default: break
            }
        }
        for (command, type) in doc.commands { if let type { check(type, command) } }
        for (name, fields) in doc.objects {
            for f in fields { check(f.type, "\(name).\(f.name)") }
            XCTAssertEqual(Set(fields.map(\.name)).count, fields.count, "\(name) lists a field twice")
        }
        // Every command of the table is listed, and nothing else.
        let fixture = try InProcessCommand()
        let table = try fixture.ok("__complete", "commands").stdout.split(separator: "\n")
            .map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[0]) }.filter { $0 != "-" }
        XCTAssertGreaterThan(table.count, 25)
        for c in table { XCTAssertTrue(doc.commands.keys.contains(c), "docs/json.md does not list '\(c)'") }
        for c in doc.commands.keys { XCTAssertTrue(table.contains(c), "docs/json.md lists '\(c)', which is no command") }
    }

    /// The `source` of a host is one of the values docs/json.md's host object lists: a host
    /// of each kind (added, from Tailscale, from an ssh_config) is made and shown (issue 23:
    /// `ssh-config` was missing).
    func testEveryHostSourceIsDocumented() throws {
        let page = try String(contentsOfFile: JSONDocumentContract.pagePath, encoding: .utf8)
        let block = try XCTUnwrap(page.components(separatedBy: "```text json-object host\n").dropFirst().first)
        let line = try XCTUnwrap(block.split(separator: "\n").first { $0.hasPrefix("source ") })
        let documented = Set(line.split(separator: " ").dropFirst(2).filter { $0 != "|" }.map(String.init))

        let fx = try InProcessCommand()
        try fx.ok("add", "web", "--hostname", "10.0.0.5")
        try fx.ok("import-tailscale", PackageRoot.path + "/testdata/tailscale/status-tagged.json", "--all")
        let config = fx.dir.file("ssh_config")
        try "Host fromconfig\n    HostName 10.0.0.9\n".write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        try fx.ok("import-ssh-config", config)
        let hosts = try XCTUnwrap(try fx.json("list") as? [[String: Any]])
        let sources = Set(hosts.compactMap { $0["source"] as? String })
        XCTAssertEqual(sources, ["manual", "tailscale", "ssh-config"])
        for source in sources { XCTAssertTrue(documented.contains(source), "docs/json.md's host.source does not list '\(source)': \(line)") }
    }
}
