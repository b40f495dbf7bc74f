// The completion scripts CommandLineKit draws from a command tree, run by the real bash
// for a program that is not hostbook; the man page's commands.
import CommandLineKit
import TestSupport
import XCTest

final class ShellIntegrationTests: XCTestCase {
    /// What bash's `_tool` offers for each line (its last word is the one completed).
    private func bashOffers(_ lines: [[String]]) throws -> [String] {
        let dir = try TempFolder()
        let file = dir.file("tool.bash")
        try BashCompletion.script(ToyProgram.tree).write(toFile: file, atomically: true, encoding: .utf8)
        var run = "source \(file)\n"
        for words in lines {
            let quoted = (["tool"] + words).map { "'\($0)'" }.joined(separator: " ")
            run += "COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count); COMPREPLY=(); _tool; printf '%s\\n' \"${COMPREPLY[*]}\"\n"
        }
        let r = try Tool.run("/bin/bash", ["--norc", "-c", run])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    func testBashCompletesTheToyProgramsWordsAndOptions() throws {
        XCTAssertEqual(try bashOffers([[""], ["k"], ["keys", ""], ["add", "web", "--p"], ["keys", "list", "--"], ["run", "box", "--q"]]), [
            "add keys run", "keys", "list remove", "--port", "--wide --config --help --version", "",
        ])
    }

    func testTheScriptsNameTheProgramAndItsCompleter() {
        let bash = BashCompletion.script(ToyProgram.tree), zsh = ZshCompletion.script(ToyProgram.tree), fish = FishCompletion.script(ToyProgram.tree)
        XCTAssertTrue(bash.hasSuffix("complete -F _tool tool\n"))
        XCTAssertTrue(bash.contains(#"$(tool __names "$1" "${_tl_ctx[@]}" -- "$2" 2>/dev/null)"#), bash)
        XCTAssertTrue(zsh.hasPrefix("#compdef tool\n"))
        XCTAssertTrue(fish.contains("complete -c tool -n '__tool_pos \\'keys remove\\' 0' -x -a '(tool __names keys (__tool_ctx) -- 2>/dev/null)' -d 'The key'\n"), fish)
        XCTAssertEqual(ToyProgram.tree.namedKinds, ["keys"])
        XCTAssertFalse((bash + zsh + fish).lowercased().contains("hostbook"))
    }

    func testTheManPageCommandsEscapeRoff() {
        let roff = ManPageCommands.roff(ToyProgram.tree)
        XCTAssertTrue(roff.hasPrefix(".SS \"tool add\"\n.B tool add\nNAME [\\-\\-port N] [\\-\\-tag T]... [\\-\\-quiet]\n.PP\nAdd a host.\n"), roff)
        XCTAssertTrue(roff.contains(".SH GLOBAL OPTIONS\n"))
        XCTAssertEqual(ManPageCommands.escape(".start -x é"), "\\&.start \\-x \\[u00E9]")
    }
}
