// The known-hosts workflows in-process, over a real SQLite file: a scan's keys decided one
// by one (the user's answers given in-process), an approval, the rotation switch refusing an
// unknown name, pasted keys, and the refusals as data.
import HostStore
import KeyFormats
import TestSupport
import Workflows
import XCTest

final class KnownHostsWorkflowTests: XCTestCase, TestHostKeys {
    /// Answers every question with `answer`, and counts them.
    final class Answers: HostKeyQuestions {
        let answer: Bool
        var asked = 0
        init(_ answer: Bool) { self.answer = answer }
        func approve(_ lookup: HostLookupName, key: PublicKey, otherNames: [String]) throws -> Bool { asked += 1; return answer }
        func replace(_ lookup: HostLookupName, key: PublicKey, stored: [KnownHostRow]) throws -> Bool { asked += 1; return answer }
    }

    var folder: TempFolder!
    var workspace: Workspace!

    override func setUpWithError() throws {
        folder = try TempFolder()
        workspace = Workspace(environment: ["HOME": folder.path], databasePath: folder.file("hostbook.db"))
    }

    func key(_ text: String) throws -> PublicKey { try PresentedHostKey.parse(text).plainKey }

    func testAScanDecidesEachKeyAgainstWhatWasStoredBefore() throws {
        let store = KnownHostsStore(database: try workspace.database())
        let lookup = try KnownHostName.lookup("h.test", port: nil)
        let yes = Answers(true)
        var seen: [HostKeyScan.Result] = []
        // A new host: both keys asked about and approved; the second is not "changed".
        let results = try HostKeyScan.decide([try key(keyA), try key(keyC)], for: lookup, in: store, asking: .possible, questions: yes) { seen.append($1) }
        XCTAssertEqual(results, [.approved, .approved])
        XCTAssertEqual(seen, results)
        XCTAssertEqual(yes.asked, 2)
        // A key no entry holds, beside a trusted one, is changed; declined, it is kept out.
        let no = Answers(false)
        XCTAssertEqual(try HostKeyScan.decide([try key(keyA), try key(keyB)], for: lookup, in: store, asking: .possible, questions: no) { _, _ in },
                       [.trusted, .changed])
        XCTAssertEqual(Set(try store.entries(forHost: "h.test").map(\.fingerprint)), [fpA, fpC])
        // Nobody to ask: refused before anything is written.
        XCTAssertThrowsError(try HostKeyScan.decide([try key(keyB)], for: lookup, in: store, asking: .noTerminal, questions: no) { _, _ in }) {
            XCTAssertEqual($0 as? KnownHostsRefusal, .scanNeedsAnswer(lookup, key: try! self.key(self.keyB), .noTerminal))
        }
        XCTAssertEqual(no.asked, 1)
    }

    func testAnApprovalRefusesAMismatchAndReplacesOnlyWhenAsked() throws {
        let store = KnownHostsStore(database: try workspace.database())
        let lookup = try KnownHostName.lookup("h.test", port: 2222)
        let a = try PresentedHostKey.parse(keyA), b = try PresentedHostKey.parse(keyB)
        XCTAssertThrowsError(try HostKeyApproval.checkFingerprint(.init(fingerprint: fpB), key: a.plainKey)) {
            XCTAssertEqual($0 as? KnownHostsRefusal, .fingerprintMismatch(given: self.fpB, key: a.plainKey))
        }
        XCTAssertThrowsError(try HostKeyApproval.run(a, for: lookup, in: store, options: .init(), asking: .refused, questions: Answers(true)) { _ in }) {
            XCTAssertEqual($0 as? KnownHostsRefusal, .approvalNeedsConfirmation(lookup, key: a.plainKey, .refused))
        }
        guard case .approved = try HostKeyApproval.run(a, for: lookup, in: store, options: .init(yes: true), asking: .refused, questions: Answers(false), askingAgain: { _ in })
        else { return XCTFail("not approved") }
        // A changed key without a terminal: refused with the stored entries, nothing replaced.
        XCTAssertThrowsError(try HostKeyApproval.run(b, for: lookup, in: store, options: .init(yes: true), asking: .noTerminal, questions: Answers(true)) { _ in }) {
            guard case .changedKeyNotReplaced(lookup, let stored, b.plainKey)? = $0 as? KnownHostsRefusal else { return XCTFail("\($0)") }
            XCTAssertEqual(stored.map(\.fingerprint), [self.fpA])
        }
        guard case .replaced(let old) = try HostKeyApproval.run(b, for: lookup, in: store, options: .init(fingerprint: fpB, replace: true),
                                                                  asking: .noTerminal, questions: Answers(false), askingAgain: { _ in })
        else { return XCTFail("not replaced") }
        XCTAssertEqual(old.map(\.fingerprint), [fpA])
    }

    func testRotationOffNeedsASavedHostOrAKnownName() throws {
        let typo = try KnownHostName.lookup("typo.test", port: nil)
        XCTAssertThrowsError(try HostKeyRotationSwitch.set(typo, on: false, savedHost: false, in: workspace)) {
            XCTAssertEqual($0 as? KnownHostsRefusal, .rotationHostUnknown(typo))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.databasePath), "nothing created")
        XCTAssertTrue(try HostKeyRotationSwitch.set(typo, on: false, savedHost: true, in: workspace))
        XCTAssertFalse(try HostKeyRotationSwitch.isOn(typo, in: workspace))
        let known = try KnownHostName.lookup("h.test", port: 2022)
        _ = try KnownHostsStore(database: workspace.database()).approve(try KnownHostName.lookup("h.test", port: nil), key: try key(keyA), source: "manual")
        XCTAssertTrue(try HostKeyRotationSwitch.set(known, on: false, savedHost: false, in: workspace))
        XCTAssertFalse(try HostKeyRotationSwitch.set(known, on: false, savedHost: false, in: workspace), "already off")
    }

    func testASavedHostStandsForItsHostnameAndPort() throws {
        _ = try workspace.database().addHost(NewHost(name: "web", hostname: "web.test", port: 2200))
        let saved = try KnownHostName.resolve("web", port: nil, in: workspace)
        XCTAssertEqual(saved.lookup, try KnownHostName.lookup("web.test", port: 2200))
        XCTAssertEqual(saved.savedHost, "web")
        XCTAssertEqual(try KnownHostName.resolve("web", port: 22, in: workspace).lookup.port, 22)
        let plain = try KnownHostName.resolve("other.test", port: nil, in: workspace)
        XCTAssertNil(plain.savedHost)
        XCTAssertFalse(plain.portNamed)
        XCTAssertTrue(try KnownHostName.resolve("[other.test]:2", port: nil, in: workspace).portNamed)
        XCTAssertThrowsError(try KnownHostName.resolve("*.test", port: nil, in: workspace)) {
            guard case .notAHostName("*.test", _)? = $0 as? KnownHostsRefusal else { return XCTFail("\($0)") }
        }
    }

    func testPastedKeysAreRefusedAsData() throws {
        let lookup = try KnownHostName.lookup("h.test", port: nil)
        XCTAssertEqual(try PastedHostKey.parse("h.test \(keyA)", for: lookup).plainKey, try key(keyA))
        XCTAssertThrowsError(try PastedHostKey.parse("other.test \(keyA)", for: lookup)) {
            XCTAssertEqual($0 as? KnownHostsRefusal, .pastedKeyForAnotherHost(hosts: "other.test", lookup: lookup))
        }
        XCTAssertThrowsError(try PastedHostKey.parse("\(keyA)\n\(keyB)", for: lookup)) {
            XCTAssertEqual($0 as? KnownHostsRefusal, .pastedKeyLines(2))
        }
        XCTAssertThrowsError(try PastedHostKey.parse("ssh-ed25519 !!", for: lookup)) {
            guard case .pastedKeyInvalid? = $0 as? KnownHostsRefusal else { return XCTFail("\($0)") }
        }
    }
}
