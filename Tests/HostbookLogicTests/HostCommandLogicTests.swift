// `hostbook add / edit / show / remove` in-process (InProcessCommand runs Hostbook.main): every validation rule
// with its exact stderr lines and exit code, what an edit changes, and where the database
// is, on a real SQLite file. Their output text, JSON field order and file modes:
// HostCommandOutputTests.
import Foundation
@testable import hostbook
import HostStore
import TestSupport
import XCTest

final class HostCommandLogicTests: XCTestCase {
    private func host(_ cli: InProcessCommand, _ name: String) throws -> HostStore.Host? {
        try HostDatabase.open(path: cli.databasePath).host(named: name)
    }

    /// Was HostCommandTests.testValidation (33 runs of the binary; the --password-stdin case
    /// reads stdin and stays there).
    func testEveryValidationRuleWithItsMessageAndExitCode() throws {
        let cli = try InProcessCommand()
        try cli.ok("add", "bastion", "--hostname", "b.example")
        try cli.ok("add", "web", "--hostname", "w.example", "--jump", "bastion")
        let hostHint = "See 'hostbook list' for the hosts there are.\n"
        let cases: [([String], Int32, String)] = [
            (["add", "bad name", "--hostname", "h"], 5, "hostbook: invalid host name 'bad name': use 1 to 64 letters, digits, '.', '_' or '-'\n"),
            (["add", String(repeating: "n", count: 65), "--hostname", "h"], 5,
             "hostbook: invalid host name '\(String(repeating: "n", count: 65))': use 1 to 64 letters, digits, '.', '_' or '-'\n"),
            (["add", "WEB", "--hostname", "h"], 5, "hostbook: a host named 'web' already exists\nChoose another name, or change it with 'hostbook edit web'.\n"),
            (["add", "x", "--hostname", "-bad.host"], 5, "hostbook: invalid hostname '-bad.host': use a DNS name, an IPv4 address or an IPv6 address\n"),
            (["add", "x", "--hostname", "bad host"], 5, "hostbook: invalid hostname 'bad host': use a DNS name, an IPv4 address or an IPv6 address\n"),
            (["add", "x", "--hostname", "300.1.2.3"], 5, "hostbook: invalid hostname '300.1.2.3': use a DNS name, an IPv4 address or an IPv6 address\n"),
            (["add", "x", "--hostname", "[::1]"], 5, "hostbook: invalid hostname '[::1]': write an IPv6 address without brackets\n"),
            (["add", "x", "--hostname", "h", "--port", "0"], 2, "hostbook: --port must be a whole number from 1 to 65535, not '0'\n"),
            (["add", "x", "--hostname", "h", "--port", "65536"], 2, "hostbook: --port must be a whole number from 1 to 65535, not '65536'\n"),
            (["add", "x", "--hostname", "h", "--port", "ssh"], 2, "hostbook: --port must be a whole number from 1 to 65535, not 'ssh'\n"),
            (["add", "x", "--hostname", "h", "--user", "-oProxyCommand=x"], 5,
             "hostbook: invalid user '-oProxyCommand=x': use 1 to 64 letters, digits, '.', '_', '-' or '@', not starting with '-'\n"),
            (["add", "x", "--hostname", "h", "--tag", "a,b"], 5, "hostbook: invalid tag 'a,b': use 1 to 64 letters, digits, '.', '_', '-' or ':'\n"),
            (["add", "x", "--hostname", "h", "--jump", "nowhere"], 5, "hostbook: jump host 'nowhere' does not exist\nAdd it first with 'hostbook add nowhere --hostname H'.\n"),
            (["add", "x", "--hostname", "h", "--jump", "x"], 5, "hostbook: host 'x' cannot be its own jump host\n"),
            (["add", "x", "--hostname", "h", "--key", "laptop"], 5,
             "hostbook: key 'laptop' does not exist\nImport it first with 'hostbook keys import PATH --name laptop'; 'hostbook keys list' shows the keys there are.\n"),
            (["add", "x", "--hostname", "h", "--note", "a\nb"], 5, "hostbook: the note contains a line break at character 2\nWrite the note on one line without control characters.\n"),
            (["add", "x"], 2, "hostbook: missing --hostname for 'hostbook add'\nRun 'hostbook add --help' for usage.\n"),
            (["add", "--hostname", "h"], 2, "hostbook: missing NAME for 'hostbook add'\nRun 'hostbook add --help' for usage.\n"),
            (["edit", "bastion", "--jump", "web"], 5, "hostbook: jump host 'web' would make a loop: bastion -> web -> bastion\n"),
            (["edit", "web", "--jump", "web"], 5, "hostbook: host 'web' cannot be its own jump host\n"),
            (["edit", "web", "--rename", "Bastion"], 5, "hostbook: a host named 'bastion' already exists\nChoose another name.\n"),
            (["edit", "web", "--port", "-5"], 2, "hostbook: --port must be a whole number from 1 to 65535, not '-5'\n"),
            (["edit", "web", "--key", "k", "--no-key"], 2, "hostbook: --key and --no-key cannot be used together\nRun 'hostbook edit --help' for usage.\n"),
            (["edit", "web", "--jump", "k", "--no-jump"], 2, "hostbook: --jump and --no-jump cannot be used together\nRun 'hostbook edit --help' for usage.\n"),
            (["edit", "web", "--password-stdin", "--no-password"], 2,
             "hostbook: --password-stdin and --no-password cannot be used together\nRun 'hostbook edit --help' for usage.\n"),
            (["edit", "web", "--tag", "a", "--untag", "A"], 2, "hostbook: --tag a and --untag a cannot be used together\nRun 'hostbook edit --help' for usage.\n"),
            (["edit", "web"], 2, "hostbook: nothing to change for host 'web'\nRun 'hostbook edit --help' for the options.\n"),
            (["edit", "web", "--untag", "x"], 5, "hostbook: host 'web' has no tag 'x'\nIt has no tags.\n"),
            (["edit", "web", "--user", "u", "--no-user"], 2, "hostbook: --user and --no-user cannot be used together\nRun 'hostbook edit --help' for usage.\n"),
            (["edit", "ghost", "--port", "22"], 4, "hostbook: no host named 'ghost'\n" + hostHint),
            (["show", "ghost"], 4, "hostbook: no host named 'ghost'\n" + hostHint),
            (["remove", "ghost"], 4, "hostbook: no host named 'ghost'\n" + hostHint),
        ]
        for (argv, status, stderr) in cases {
            XCTAssertEqual(try cli.refusal(argv), InProcessCommand.Refusal(status: status, stderr: stderr), "\(argv)")
        }
        // Nothing above was written.
        XCTAssertEqual(try HostDatabase.open(path: cli.databasePath).hosts().map(\.name), ["bastion", "web"])
    }

    /// Was HostCommandTests.testEditChangesOnlyWhatIsGiven (binary, 11 runs).
    func testAnEditChangesOnlyWhatIsGivenAndARefusedEditWritesNothing() throws {
        let cli = try InProcessCommand()
        try cli.ok("add", "jump", "--hostname", "j.example")
        try cli.ok("add", "web", "--hostname", "w.example", "--user", "root", "--tag", "a", "--tag", "b", "--note", "old")
        try cli.ok("edit", "web", "--rename", "web2", "--port", "2200", "--tag", "c", "--untag", "A", "--jump", "jump", "--note", "")
        XCTAssertNil(try host(cli, "web"))
        var o = try XCTUnwrap(try host(cli, "web2"))
        XCTAssertEqual(o.tags, ["b", "c"])
        XCTAssertEqual(o.user, "root")
        XCTAssertEqual(o.hostname, "w.example")
        XCTAssertEqual(o.port, 2200)
        XCTAssertEqual(o.jump, "jump")
        XCTAssertNil(o.note, "an empty --note clears it")
        try cli.ok("edit", "web2", "--no-jump", "--user", "ops", "--hostname", "10.1.1.1")
        o = try XCTUnwrap(try host(cli, "web2"))
        XCTAssertNil(o.jump)
        XCTAssertEqual(o.user, "ops")
        XCTAssertEqual(o.hostname, "10.1.1.1")
        try cli.ok("edit", "web2", "--no-user")
        XCTAssertNil(try host(cli, "web2")?.user, "--no-user clears the user")
        // --untag of a tag the host lacks is refused, and nothing of that edit is written.
        XCTAssertEqual(try cli.refusal(["edit", "web2", "--untag", "b", "--untag", "nope", "--port", "2"]),
                       InProcessCommand.Refusal(status: 5, stderr: "hostbook: host 'web2' has no tag 'nope'\nIts tags: b, c.\n"))
        o = try XCTUnwrap(try host(cli, "web2"))
        XCTAssertEqual(o.tags, ["b", "c"])
        XCTAssertEqual(o.port, 2200)
        // ssh accepts `_` in host names; hostbook does too.
        try cli.ok("add", "build_01", "--hostname", "build_01.corp.example")
        XCTAssertEqual(try host(cli, "build_01")?.hostname, "build_01.corp.example")
        // The old name is gone; the new one is the nearest saved name (a suggestion only).
        XCTAssertEqual(try cli.refusal(["show", "web"]), InProcessCommand.Refusal(
            status: 4, stderr: "hostbook: no host named 'web'\nDid you mean 'web2'? See 'hostbook list' for the hosts there are.\n"))
    }

    /// Was HostCommandTests.testDatabasePathResolution (binary, 3 runs): --db wins over
    /// $HOSTBOOK_DB, then $XDG_DATA_HOME, then ~/.local/share; the file is made there.
    func testTheDatabaseIsWhereDbThenTheEnvironmentSay() throws {
        let cli = try InProcessCommand()
        let tmp = try TempFolder()
        try cli.ok("add", "a", "--hostname", "a.example", "--db", tmp.file("flag.db"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.file("flag.db")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.databasePath))
        cli.environment["HOSTBOOK_DB"] = nil
        XCTAssertNil(try cli.refusal(["add", "b", "--hostname", "b.example"], environment: ["XDG_DATA_HOME": tmp.file("xdg")]))
        XCTAssertEqual(try HostDatabase.open(path: tmp.file("xdg/hostbook/hostbook.db")).hosts().map(\.name), ["b"])
        // A relative $XDG_DATA_HOME is ignored (XDG base directory rules): ~/.local/share.
        XCTAssertNil(try cli.refusal(["add", "c", "--hostname", "c.example"], environment: ["HOME": tmp.file("home"), "XDG_DATA_HOME": "relative"]))
        XCTAssertEqual(try HostDatabase.open(path: tmp.file("home/.local/share/hostbook/hostbook.db")).hosts().map(\.name), ["c"])
    }
}
