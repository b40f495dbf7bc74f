// The imports' notes whose fix is a hostbook command: the importer's line (HostStore's
// ImportNote) and the command (its Remedy) worded by the executable, making the lines the
// import reports show in text and --json, byte for byte.
@testable import hostbook
@testable import HostStore
import XCTest

final class ImportNoteWordingTests: XCTestCase {
    func testEachRemedyEndsItsNoteAsTheReportsSayIt() {
        XCTAssertEqual(ImportNote("IdentityFile ~/.ssh/other: no imported hostbook key has this public key",
                                  remedy: .importKeyThenImportAgain(path: "~/.ssh/other")).line,
                       "IdentityFile ~/.ssh/other: no imported hostbook key has this public key; import it with 'hostbook keys import ~/.ssh/other' and import the config again")
        XCTAssertEqual(ImportNote("host 'old' (Host old, /home/u/.ssh/config line 1) is no longer in the configuration; it was kept",
                                  remedy: .removeHost(name: "old")).line,
                       "host 'old' (Host old, /home/u/.ssh/config line 1) is no longer in the configuration; it was kept (remove it with 'hostbook remove old')")
        XCTAssertEqual(ImportNote("1 hashed known_hosts entry was not compared with the 5 imported names (too many to test)",
                                  remedy: .knownHostsCheckStillApplies).line,
                       "1 hashed known_hosts entry was not compared with the 5 imported names (too many to test); 'hostbook known-hosts check' still applies them")
        XCTAssertEqual(ImportNote("Match exec (/c line 3): not evaluated").line, "Match exec (/c line 3): not evaluated", "no remedy: the text alone")
    }

    func testAConflictingTailscaleKeyNamesTheApproveCommand() {
        let conflict = TailscaleKeyProblem(host: "build01", pattern: "build01.ts.net", keyType: "ssh-ed25519", fingerprint: "SHA256:new",
                                           reason: "another key (SHA256:old) is trusted from tofu", remedy: .approveReplacing)
        XCTAssertEqual(conflict.reasonLine, "another key (SHA256:old) is trusted from tofu; decide with 'hostbook known-hosts approve --replace'")
        var report = TailscaleImportReport(format: .status, dryRun: true)
        report.keyProblems = [conflict]
        XCTAssertEqual(TailscaleImportOutput.problemLines(report),
                       ["build01: ssh-ed25519 SHA256:new not trusted for build01.ts.net: another key (SHA256:old) is trusted from tofu; decide with 'hostbook known-hosts approve --replace'"])
    }
}
