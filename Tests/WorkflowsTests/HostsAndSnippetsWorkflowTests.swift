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
        var input = HostChanges()
        input.addTags = ["Prod"]
        input.removeTags = ["prod"]
        XCTAssertThrowsError(try HostEditing.edit("web", input, in: workspace)) { XCTAssertEqual($0 as? HostsRefusal, .tagAddedAndRemoved("Prod")) }
        XCTAssertThrowsError(try HostEditing.edit("web", HostChanges(), in: workspace)) { XCTAssertEqual($0 as? HostsRefusal, .nothingToChange(host: "web")) }
        input = HostChanges()
        XCTAssertThrowsError(try HostEditing.edit("web", input, resets: ["colour"], in: workspace)) { XCTAssertEqual($0 as? HostsRefusal, .notAResetField("colour")) }
        input.note = "x"
        XCTAssertThrowsError(try HostEditing.edit("web", input, resets: ["user"], in: workspace)) { XCTAssertEqual($0 as? HostsRefusal, .resetWithOtherChanges) }
        // A host that does not exist: the store's not-found, and no database is created.
        input = HostChanges()
        input.note = "x"
        XCTAssertThrowsError(try HostEditing.edit("web", input, in: workspace)) { XCTAssertEqual(($0 as? HostStoreError)?.kind, .notFound) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.databasePath))
    }

    func testAddThenEditWritesTheHost() throws {
        var add = NewHost(name: "web", hostname: "web.test", port: 2200, tags: ["prod"])
        let host = try HostEditing.add(try HostEditing.checked(add), password: nil, in: workspace)
        XCTAssertEqual(host.port, 2200)
        XCTAssertFalse(try HostEditing.userOmitted(host, in: workspace), "published with its user by default")
        var input = HostChanges()
        input.user = "deploy"
        let edit = try HostEditing.edit("web", input, userPublishing: "omit", in: workspace)
        XCTAssertFalse(edit.needsPassword)
        XCTAssertEqual(edit.userPublishing, .omit)
        XCTAssertEqual(try HostEditing.apply(edit, password: nil, in: workspace).user, "deploy")
        XCTAssertEqual(try HostEditing.existing("web", in: workspace).user, "deploy")
        XCTAssertTrue(try HostEditing.userOmitted(try HostEditing.existing("web", in: workspace), in: workspace))
        add.name = "bad name"
        XCTAssertThrowsError(try HostEditing.checked(add))
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
        guard case .noDatabase(let path)? = DatabaseCheck().run(DoctorContext(workspace: workspace)).first else { return XCTFail() }
        XCTAssertEqual(path, workspace.databasePath)
        _ = try workspace.database()
        let observed = DatabaseCheck().run(DoctorContext(workspace: workspace))
        guard observed.count == 1, case .databaseHealthy(_, Schema.currentVersion, nil) = observed[0] else { return XCTFail("\(observed)") }
        XCTAssertTrue(RestrictedKeyCheck().run(DoctorContext(workspace: workspace)).isEmpty)
        XCTAssertTrue(CertificateExpiryCheck().run(DoctorContext(workspace: workspace)).isEmpty)
    }

    func testTheHostPickerOffersTheSavedHostsWithoutCreatingADatabase() throws {
        XCTAssertEqual(try HostPicker.entries(in: workspace), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.databasePath), "nothing created")
        let add = NewHost(name: "web", hostname: "fe80::1", port: 2200, tags: ["prod"])
        _ = try HostEditing.add(try HostEditing.checked(add), password: nil, in: workspace)
        let entries = try HostPicker.entries(in: workspace)
        XCTAssertEqual(entries, [HostPicker.Entry(name: "web", target: "[fe80::1]:2200", tags: ["prod"])])
        var picker = HostPicker(entries: entries)
        _ = picker.press(.text("PROD"))
        XCTAssertEqual(picker.press(.enter), .choose("web"))
    }

    func testTheSSHClientCheckSaysWhenThereIsNoSSH() throws {
        guard case .sshMissing? = SSHClientCheck(environment: ["PATH": folder.path]).run().first else { return XCTFail("ssh found") }
        let found = SSHClientCheck(environment: ["PATH": "/usr/bin:/bin"]).run()
        XCTAssertEqual(found.count, 1)
        switch found.first {
        case .sshSupported(let client)?, .sshTooOld(let client)?: XCTAssertEqual(client.path, "/usr/bin/ssh")
        default: XCTFail("\(found)")
        }
    }

    func testJSONDocumentsRenderInTheContractsShape() throws {
        let value = JSONValue.object([("a", .array([.int(1), .null])), ("b", .object([])), ("c", .string("\u{1b}\""))])
        XCTAssertEqual(value.rendered(), "{\n  \"a\": [\n    1,\n    null\n  ],\n  \"b\": {},\n  \"c\": \"\\u001b\\\"\"\n}")
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
