// The bash, zsh and fish completions, held to the command table: every command and every
// flag appears in each, and the completions offer saved names wherever a command takes one
// — run in the real shells against the real binary. The man page, the command listing and
// `__complete` itself run in-process: HostbookLogicTests/ShellIntegrationLogicTests; every
// command and flag of the bash and zsh scripts (no binary called):
// HostbookLogicTests/ShellCompletionScriptLogicTests.
import Foundation
import TestSupport
import XCTest

final class ShellIntegrationTests: XCTestCase {
    var hb: HostbookFixture!
    var commands: [CompletionListing.Command] = []
    var globals: [String] = []

    override func setUpWithError() throws {
        hb = try HostbookFixture()
        let parsed = try hb.completionListing()
        commands = parsed.commands
        globals = parsed.globals
    }

    // MARK: bash

    /// Runs `_hostbook` in bash for each command line (the last word is the one completed)
    /// and returns what it offered, in order.
    func bashComplete(_ lines: [[String]], environment: [String: String] = [:]) throws -> [[String]] {
        let dir = try TemporaryDirectory()
        try hb.ok("completions", "bash").stdout.write(toFile: dir.file("hostbook.bash"), atomically: true, encoding: .utf8)
        var script = "source \(dir.file("hostbook.bash"))\n"
        for words in lines {
            let quoted = (["hostbook"] + words).map { "'" + $0 + "'" }.joined(separator: " ")
            script += "COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count); COMPREPLY=(); _hostbook; printf '%s\\n' \"${COMPREPLY[*]}\"\n"
        }
        try script.write(toFile: dir.file("run.bash"), atomically: true, encoding: .utf8)
        let r = try hb.tool("/bin/bash", ["--norc", "--noprofile", dir.file("run.bash")],
                            environment: try pathWithHostbook(dir).merging(environment) { $1 })
        XCTAssertEqual(r.stderr, "")
        let out = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(out.count, lines.count)
        return out
    }

    /// PATH with the binary under test first, as `hostbook` (what the scripts call), and the test database.
    func pathWithHostbook(_ dir: TemporaryDirectory) throws -> [String: String] {
        let bin = dir.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(atPath: bin + "/hostbook", withDestinationPath: HostbookProcess.binaryURL.path)
        return ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "HOSTBOOK_DB": hb.db]
    }

    func testBashCompletesSavedNamesWhereACommandTakesOne() throws {
        try hb.ok("add", "web-1", "--hostname", "a.example")
        try hb.ok("add", "web-2", "--hostname", "b.example", "--jump", "web-1")
        try hb.ok("add", "db", "--hostname", "c.example")
        try hb.ok("snippets", "add", "logs", "--command", "journalctl -f")
        try hb.ok("snippets", "add", "disk", "--command", "df -h")
        try hb.ok("keys", "generate", "deploy")
        let names = ["hosts": ["db", "web-1", "web-2"], "keys": ["deploy"], "snippets": ["disk", "logs"]]
        let named = commands.filter { names[$0.positionals.first ?? ""] != nil }
        XCTAssertGreaterThanOrEqual(named.count, 16)
        var lines = named.map { $0.words + [""] }
        lines += [["show", "we"], ["edit", "web-1", "--jump", ""], ["add", "x", "--key", ""], ["--db", hb.db, "snippets", "show", "l"],
                  ["--db", hb.dir.file("none.db"), "show", ""], ["show", "db", ""]]
        let got = try bashComplete(lines)
        for (c, offered) in zip(named, got) { XCTAssertEqual(offered, names[c.positionals[0]], c.line) }
        XCTAssertEqual(Array(got[named.count...]), [["web-1", "web-2"], ["db", "web-1", "web-2"], ["deploy"], ["logs"], [], []])
        XCTAssertFalse(FileManager.default.fileExists(atPath: hb.dir.file("none.db")), "completion never creates a database")
    }

    // MARK: zsh

    /// zsh itself on a pseudo-terminal (its zpty module): Tab twice lists what the function offers.
    func testZshOffersNamesOnARealTerminal() throws {
        let zsh = URL(fileURLWithPath: "/usr/bin/zsh")
        guard FileManager.default.isExecutableFile(atPath: zsh.path) else { throw XCTSkip("zsh is not installed (scripts/setup installs it)") }
        try hb.ok("add", "web-1", "--hostname", "a.example")
        try hb.ok("add", "db", "--hostname", "b.example")
        let dir = try TemporaryDirectory()
        try hb.ok("completions", "zsh").stdout.write(toFile: dir.file("_hostbook"), atomically: true, encoding: .utf8)
        // $1: the line typed; $2: a word to wait for (up to 20 s). Prints what the terminal showed.
        let driver = """
            zmodload zsh/zpty
            zpty -b z 'zsh -f -i'
            zpty -w z 'PS1="%% "; fpath=(\(dir.path) $fpath); autoload -U compinit; compinit -u; zstyle ":completion:*" menu no'
            zpty -w z "export HOSTBOOK_DB=$HOSTBOOK_DB PATH=$PATH"
            sleep 0.5
            while zpty -r -t z chunk; do :; done
            zpty -n -w z "$1"$'\\t\\t'
            out=''
            for i in {1..200}; do
                while zpty -r -t z chunk; do out+=$chunk; done
                [[ $out == *"$2"* ]] && break
                sleep 0.1
            done
            print -r -- "$out"
            zpty -d z
            """
        try driver.write(toFile: dir.file("drive.zsh"), atomically: true, encoding: .utf8)
        let env = try pathWithHostbook(dir)
        for (line, expected, absent) in [("hostbook show ", ["db", "web-1"], "--json"), ("hostbook keys ", ["generate", "export"], "web-1"),
                                         ("hostbook edit web-1 --jump ", ["web-1", "db"], "generate")] {
            let r = try hb.tool(zsh.path, ["-f", dir.file("drive.zsh"), line, expected[1]], environment: env, timeout: 60)
            let shown = r.stdout.replacingOccurrences(of: "\r", with: "")
            for e in expected { XCTAssertTrue(shown.contains(e), "\(line): \(shown.debugDescription)") }
            XCTAssertFalse(shown.contains(absent), "\(line): \(shown.debugDescription)")
        }
    }

    // MARK: fish

    /// Asks fish itself (`complete -C`) what it would offer for each line.
    func fishComplete(_ lines: [String]) throws -> [[String]] {
        let fish = URL(fileURLWithPath: "/usr/bin/fish")
        guard FileManager.default.isExecutableFile(atPath: fish.path) else { throw XCTSkip("fish is not installed (scripts/setup installs it)") }
        let dir = try TemporaryDirectory()
        try hb.ok("completions", "fish").stdout.write(toFile: dir.file("hostbook.fish"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try ToolProcess.run(fish, ["-n", dir.file("hostbook.fish")]).status, 0)
        var script = "source \(dir.file("hostbook.fish"))\n"
        for l in lines { script += "complete -C '\(l)' | string replace -r '\\t.*' ''; echo '=='\n" }
        try script.write(toFile: dir.file("run.fish"), atomically: true, encoding: .utf8)
        let r = try hb.tool(fish.path, ["--no-config", dir.file("run.fish")], environment: try pathWithHostbook(dir))
        XCTAssertEqual(r.stderr, "")
        let blocks = r.stdout.components(separatedBy: "==\n").dropLast()
        XCTAssertEqual(blocks.count, lines.count)
        return blocks.map { $0.split(separator: "\n").map(String.init) }
    }

    func testFishCompletesEveryCommandFlagAndName() throws {
        try hb.ok("add", "web-1", "--hostname", "a.example")
        try hb.ok("snippets", "add", "logs", "--command", "journalctl -f")
        var lines = commands.map { "hostbook \($0.line) --" }
        lines += ["hostbook ", "hostbook keys ", "hostbook show ", "hostbook snippets edit ", "hostbook edit web-1 --jump ", "hostbook known-hosts list "]
        let got = try fishComplete(lines)
        for (c, offered) in zip(commands, got) { XCTAssertEqual(Set(offered), Set(c.options + globals), c.line) }
        let rest = Array(got[commands.count...])
        XCTAssertEqual(Set(rest[0]), Set(commands.map { $0.words[0] }))
        XCTAssertEqual(Set(rest[1]), Set(commands.filter { $0.words.first == "keys" && $0.words.count >= 2 }.map { $0.words[1] }))
        XCTAssertEqual(rest[2], ["web-1"])
        XCTAssertEqual(rest[3], ["logs"])
        XCTAssertEqual(rest[4], ["web-1"])
        XCTAssertEqual(rest[5], ["web-1"])
    }

    // MARK: after HOST of `hostbook ssh` (issue 23)

    /// Every word after HOST goes to ssh (`hostbook ssh web --snippet x` hands `--snippet`
    /// to ssh, which says `unknown option -- -`): no shell offers hostbook's options or
    /// names there, and all of them still do before HOST.
    func testNothingOfHostbooksIsOfferedAfterTheHostOfSSH() throws {
        try hb.ok("add", "web", "--hostname", "a.example")
        try hb.ok("snippets", "add", "logs", "--command", "journalctl -f")
        let ssh = try XCTUnwrap(commands.first { $0.line == "ssh" })
        XCTAssertTrue(ssh.options.contains("--snippet"))

        let bash = try bashComplete([["ssh", "web", "--"], ["ssh", "web", ""], ["ssh", "web", "--snippet", ""], ["ssh", "web", "-v", "--"],
                                     ["ssh", "--"], ["ssh", ""], ["ssh", "--snippet", ""], ["ssh", "--snippet", "logs", "w"]])
        XCTAssertEqual(Array(bash[0..<4]), [[], [], [], []])
        XCTAssertEqual(Set(bash[4]), Set(ssh.options + globals))
        XCTAssertEqual(Array(bash[5...]), [["web"], ["logs"], ["web"]])

        let fish = try fishComplete(["hostbook ssh web --", "hostbook ssh web --snippet ", "hostbook ssh --", "hostbook ssh ",
                                     "hostbook ssh --snippet "])
        XCTAssertEqual(Array(fish[0..<2]), [[], []])
        XCTAssertEqual(Set(fish[2]), Set(ssh.options + globals))
        XCTAssertEqual(Array(fish[3...]), [["web"], ["logs"]])

        // zsh: the function itself, with compsys's offering functions standing in to say which was called.
        let zsh = URL(fileURLWithPath: "/usr/bin/zsh")
        guard FileManager.default.isExecutableFile(atPath: zsh.path) else { throw XCTSkip("zsh is not installed (scripts/setup installs it)") }
        let dir = try TemporaryDirectory()
        try hb.ok("completions", "zsh").stdout.write(toFile: dir.file("_hostbook"), atomically: true, encoding: .utf8)
        var script = """
            source <(sed '$d' \(dir.file("_hostbook")))
            _describe() { print -r -- "describe $3" }
            _message() { print -r -- "message $1" }
            compadd() { print -r -- "compadd" }

            """
        for line in [["ssh", "web", "--"], ["ssh", "web", "--snippet", ""], ["ssh", "--"], ["ssh", "--snippet", ""]] {
            let words = (["hostbook"] + line).map { "'\($0)'" }.joined(separator: " ")
            script += "words=(\(words)); CURRENT=\(line.count + 1); _hostbook\n"
        }
        try script.write(toFile: dir.file("run.zsh"), atomically: true, encoding: .utf8)
        let r = try hb.tool(zsh.path, ["-f", dir.file("run.zsh")], environment: try pathWithHostbook(dir))
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, "message arguments for ssh\nmessage arguments for ssh\ndescribe option\ncompadd\n")
    }
}
