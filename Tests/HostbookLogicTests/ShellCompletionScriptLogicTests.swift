// The bash and zsh completion scripts held to the command table, in-process
// (InProcessCommand runs Hostbook.main for `completions SHELL` and `__complete commands`):
// the real shell runs each script and every command and every flag it offers comes from
// the script itself, with no `hostbook` for it to call (a stand-in on PATH records a call,
// which fails the test). Moved from HostbookTests/ShellIntegrationTests, which keeps the
// completions that call the binary for saved names, fish, and zsh on a real terminal.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class ShellCompletionScriptLogicTests: XCTestCase {
    var hb: InProcessCommand!
    var commands: [CompletionListing.Command] = []
    var globals: [String] = []

    override func setUpWithError() throws {
        hb = try InProcessCommand()
        let parsed = try hb.completionListing()
        commands = parsed.commands
        globals = parsed.globals
    }

    override func tearDown() { hb = nil }

    /// PATH whose `hostbook` only records that it was called (in FOLDER/called).
    func pathWithRecordingHostbook() throws -> [String: String] {
        let bin = hb.dir.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\necho \"$*\" >> '\(hb.dir.file("called"))'\nexit 1\n".write(toFile: bin + "/hostbook", atomically: true, encoding: .utf8)
        chmod(bin + "/hostbook", 0o755)
        return ["PATH": bin + ":/usr/bin:/bin"]
    }

    func assertHostbookNotCalled(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(FileManager.default.fileExists(atPath: hb.dir.file("called")),
                       "the script called hostbook: \((try? String(contentsOfFile: hb.dir.file("called"), encoding: .utf8)) ?? "")", file: file, line: line)
    }

    /// Runs `_hostbook` in bash for each command line (the last word is the one completed)
    /// and returns what it offered, in order.
    func bashComplete(_ lines: [[String]]) throws -> [[String]] {
        let script = hb.dir.file("hostbook.bash")
        try hb.ok("completions", "bash").stdout.write(toFile: script, atomically: true, encoding: .utf8)
        var run = "source \(script)\n"
        for words in lines {
            let quoted = (["hostbook"] + words).map { "'" + $0 + "'" }.joined(separator: " ")
            run += "COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count); COMPREPLY=(); _hostbook; printf '%s\\n' \"${COMPREPLY[*]}\"\n"
        }
        try run.write(toFile: hb.dir.file("run.bash"), atomically: true, encoding: .utf8)
        let r = try hb.tool("/bin/bash", ["--norc", "--noprofile", hb.dir.file("run.bash")], environment: try pathWithRecordingHostbook())
        XCTAssertEqual(r.stderr, "")
        let out = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(out.count, lines.count)
        return out
    }

    func testBashCompletesEveryCommandAndFlag() throws {
        var lines: [[String]] = []
        for c in commands { lines.append(c.words + ["--"]) }
        // Every group's words, and the top level's.
        let groups = Set(commands.filter { $0.words.count > 1 }.map { $0.words[0] })
        lines.append([""])
        for g in groups.sorted() { lines.append([g, ""]) }
        let got = try bashComplete(lines)
        for (c, offered) in zip(commands, got) {
            XCTAssertEqual(Set(offered), Set(c.options + globals), c.line)
        }
        let top = got[commands.count]
        for c in commands { XCTAssertTrue(top.contains(c.words[0]), c.line) }
        for (g, offered) in zip(groups.sorted(), got[(commands.count + 1)...]) {
            // The commands under the group, and its own groups (`keys cert`).
            XCTAssertEqual(Set(offered), Set(commands.filter { $0.words.count >= 2 && $0.words[0] == g }.map { $0.words[1] }), g)
        }
        assertHostbookNotCalled()
    }

    func testZshFunctionParsesAndDescribesEveryCommandAndFlag() throws {
        let zsh = "/usr/bin/zsh"
        guard FileManager.default.isExecutableFile(atPath: zsh) else { throw XCTSkip("zsh is not installed (scripts/setup installs it)") }
        let function = try hb.ok("completions", "zsh").stdout
        XCTAssertTrue(function.hasPrefix("#compdef hostbook\n"))
        let file = hb.dir.file("_hostbook")
        try function.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try hb.tool(zsh, ["-n", file]).status, 0)
        // Load the helpers (everything but the final call) and ask each path what it offers.
        var script = "source <(sed '$d' \(file))\n"
        for c in commands { script += "_hostbook_spec '\(c.line)'; print -r -- \"${(j: :)${_hb_opts[@]%%:*}}\"\n" }
        script += "_hostbook_spec ''; print -r -- \"${(j: :)_hb_words}\"\n"
        try script.write(toFile: hb.dir.file("run.zsh"), atomically: true, encoding: .utf8)
        let r = try hb.tool(zsh, ["-f", hb.dir.file("run.zsh")], environment: try pathWithRecordingHostbook())
        XCTAssertEqual(r.stderr, "")
        let out = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map { Set($0.split(separator: " ").map(String.init)) }
        for (i, c) in commands.enumerated() { XCTAssertEqual(out[i], Set(c.options + globals), c.line) }
        XCTAssertEqual(out[commands.count], Set(commands.map { $0.words[0] }))
        assertHostbookNotCalled()
    }
}
