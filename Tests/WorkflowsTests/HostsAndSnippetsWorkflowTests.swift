// The host and snippet workflows, Tailscale's device choice and doctor's checks in-process,
// over a real SQLite file: what each refuses (as data), what it writes, what it observes.
import HostStore
import TestSupport
import Workflows
import XCTest

final class HostsAndSnippetsWorkflowTests: XCTestCase {
    var folder: TempFolder!
    var workspace: Workspace!

    override func setUpWithError() throws {
        folder = try TempFolder()
        workspace = Workspace(environment: ["HOME": folder.path], databasePath: folder.file("hostbook.db"))
    }

    func testAnEditIsCheckedBeforeAnythingIsAskedOrWritten() throws {
        var input = HostEditInput()
        input.addTags = ["Prod"]
        input.removeTags = ["prod"]
        XCTAssertThrowsError(try HostEditing.edit("web", input, in: workspace)) { XCTAssertEqual($0 as? HostsRefusal, .tagAddedAndRemoved("Prod")) }
        XCTAssertThrowsError(try HostEditing.edit("web", HostEditInput(), in: workspace)) { XCTAssertEqual($0 as? HostsRefusal, .nothingToChange(host: "web")) }
        input = HostEditInput()
        input.resets = ["colour"]
        XCTAssertThrowsError(try HostEditing.edit("web", input, in: workspace)) { XCTAssertEqual($0 as? HostsRefusal, .notAResetField("colour")) }
        input.resets = ["user"]
        input.note = "x"
        XCTAssertThrowsError(try HostEditing.edit("web", input, in: workspace)) { XCTAssertEqual($0 as? HostsRefusal, .resetWithOtherChanges) }
        // A host that does not exist: the store's not-found, and no database is created.
        input = HostEditInput()
        input.note = "x"
        XCTAssertThrowsError(try HostEditing.edit("web", input, in: workspace)) { XCTAssertEqual(($0 as? HostStoreError)?.kind, .notFound) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.databasePath))
    }

    func testAddThenEditWritesTheHost() throws {
        var add = HostAddInput(name: "web", hostname: "web.test")
        add.port = 2200
        add.tags = ["prod"]
        let host = try HostEditing.add(try HostEditing.newHost(add), password: nil, in: workspace)
        XCTAssertEqual(host.port, 2200)
        var input = HostEditInput()
        input.user = "deploy"
        input.userPublishing = "omit"
        let edit = try HostEditing.edit("web", input, in: workspace)
        XCTAssertFalse(edit.needsPassword)
        XCTAssertEqual(edit.userPublishing, .omit)
        XCTAssertEqual(try HostEditing.apply(edit, password: nil, in: workspace).user, "deploy")
        XCTAssertEqual(try HostEditing.existing("web", in: workspace).user, "deploy")
        add.name = "bad name"
        XCTAssertThrowsError(try HostEditing.newHost(add))
    }

    func testSnippetsAreFoundAddedChangedAndRemoved() throws {
        XCTAssertThrowsError(try SnippetEditing.existing("up", in: workspace)) { XCTAssertEqual($0 as? SnippetsRefusal, .notFound("up")) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.databasePath))
        let (command, secrets) = try SnippetCommandText.checked(Array("curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789' x".utf8))
        XCTAssertFalse(secrets.isEmpty)
        XCTAssertThrowsError(try SnippetCommandText.checked([0x66, 0xFF]))
        _ = try SnippetEditing.add("up", command: command, description: nil, tags: ["t"], in: workspace)
        let s = try SnippetEditing.edit("up", SnippetChanges(rename: "up2", description: "d", removeTags: ["t"]), in: workspace)
        XCTAssertEqual([s.name, s.description], ["up2", "d"])
        XCTAssertEqual(s.tags, [])
        XCTAssertEqual(try SnippetEditing.remove("up2", in: workspace).command, command)
        XCTAssertThrowsError(try SnippetEditing.checkName("no spaces"))
    }

    func testTailscaleDeviceChoice() throws {
        XCTAssertEqual(try TailscaleDeviceChoice.parseChoice("1,3-4, 3", count: 4), [0, 2, 3])
        XCTAssertEqual(try TailscaleDeviceChoice.parseChoice("all", count: 2), [0, 1])
        XCTAssertEqual(try TailscaleDeviceChoice.parseChoice("", count: 2), [])
        XCTAssertThrowsError(try TailscaleDeviceChoice.parseChoice("2-5", count: 4)) { XCTAssertEqual($0 as? TailscaleRefusal, .badChoice("2-5", count: 4)) }
        XCTAssertThrowsError(try TailscaleDeviceChoice(all: false, only: nil, tags: ["tag:"], onlineOnly: false, includeSkipped: false)) {
            XCTAssertEqual($0 as? TailscaleRefusal, .tagWithoutName)
        }
        XCTAssertThrowsError(try TailscaleDeviceChoice(all: false, only: " , ", tags: [], onlineOnly: false, includeSkipped: false)) {
            XCTAssertEqual($0 as? TailscaleRefusal, .onlyWithoutNames)
        }
        let choice = try TailscaleDeviceChoice(all: false, only: " web , db", tags: ["prod"], onlineOnly: true, includeSkipped: false)
        XCTAssertEqual(choice.selection.only, ["web", "db"])
        XCTAssertEqual(choice.selection.tags, ["tag:prod"])
        XCTAssertThrowsError(try choice.devices([])) { XCTAssertEqual($0 as? TailscaleRefusal, .deviceNotFound("web")) }
        XCTAssertThrowsError(try TailscaleInput.read(folder.file("missing.json"), environment: [:])) {
            guard case .cannotOpen(let path, _)? = $0 as? TailscaleRefusal else { return XCTFail("\($0)") }
            XCTAssertEqual(path, self.folder.file("missing.json"))
        }
    }

    func testDoctorObservesAFreshDatabase() throws {
        guard case .noDatabase(let path)? = DatabaseCheck().run(DoctorContext(path: workspace.databasePath)).first else { return XCTFail() }
        XCTAssertEqual(path, workspace.databasePath)
        _ = try workspace.database()
        let observed = DatabaseCheck().run(DoctorContext(path: workspace.databasePath))
        guard observed.count == 1, case .databaseHealthy(_, Schema.currentVersion, nil) = observed[0] else { return XCTFail("\(observed)") }
        XCTAssertTrue(RestrictedKeyCheck().run(DoctorContext(path: workspace.databasePath)).isEmpty)
        XCTAssertTrue(CertificateExpiryCheck().run(DoctorContext(path: workspace.databasePath)).isEmpty)
    }

    func testJSONDocumentsRenderInTheContractsShape() throws {
        let value = JSONValue.object([("a", .array([.int(1), .null])), ("b", .object([])), ("c", .string("\u{1b}\""))])
        XCTAssertEqual(value.rendered(), "{\n  \"a\": [\n    1,\n    null\n  ],\n  \"b\": {},\n  \"c\": \"\\u001b\\\"\"\n}")
        XCTAssertEqual(value.line(), Array((value.rendered() + "\n").utf8))
        var streamed = ""
        var json = StreamedJSONObject { streamed += $0 }
        json.field("a", .int(1))
        json.field("b", .null)
        json.array("c", ["\u{1b}\"", "d"]) { .object([("e", .string($0))]) }
        json.finish()
        let whole = JSONValue.object([("a", .int(1)), ("b", .null),
                                      ("c", .array([.object([("e", .string("\u{1b}\""))]), .object([("e", .string("d"))])]))])
        XCTAssertEqual(streamed, whole.rendered() + "\n")
    }
}
