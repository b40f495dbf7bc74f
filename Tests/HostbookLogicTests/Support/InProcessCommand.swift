// One hostbook command run in this process: argv through the real ArgumentParser and
// command table, the command body run on a real SQLite file, and a refusal turned into the
// stderr lines and exit status that `Hostbook.main` would print (the same UserFacingError
// fields, the same `hostbook: MESSAGE` / hint layout). Never prompts (--no-input), never
// spawns the binary: the logic of a command is tested here, its command line in HostbookTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class InProcessCommand {
    let folder: TempFolder
    /// The database file every command uses ($HOSTBOOK_DB), not created until a command writes.
    var databasePath: String { folder.file("data/hostbook.db") }
    var environment: [String: String]

    init() throws {
        folder = try TempFolder()
        environment = ["HOSTBOOK_DB": folder.file("data/hostbook.db"), "HOME": folder.file("home"), "NO_COLOR": "1"]
    }

    /// What a refused command prints and exits with.
    struct Refusal: Equatable, CustomStringConvertible {
        let status: Int32
        let stderr: String
        var description: String { "exit \(status): \(stderr.debugDescription)" }
    }

    /// Runs `argv`; nil when it succeeded, else its refusal. Anything but a user-facing error
    /// (which `Hostbook.main` would report as "unexpected error") fails the test.
    @discardableResult
    func run(_ argv: [String], environment extra: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) -> Refusal? {
        let env = environment.merging(extra) { $1 }
        do {
            switch try ArgumentParser(commands: CommandTable.all).parse(argv) {
            case .version, .help:
                return nil
            case .run(let spec, let args, var globals):
                globals.noInput = true
                try spec.run(Invocation(args: args, globals: globals, environment: env))
                return nil
            }
        } catch let status as ExitStatus {
            return Refusal(status: status.code.rawValue, stderr: "")
        } catch let error as UserFacingError {
            // As Hostbook.report lays it out and escapes it.
            var text: TerminalText = "hostbook: \(error.message)\n"
            for detail in error.details { text += "  \(detail)\n" }
            if let hint = error.hint { text += "\(hint)\n" }
            return Refusal(status: error.exitCode.rawValue, stderr: text.text)
        } catch {
            XCTFail("\(argv): unexpected error \(error)", file: file, line: line)
            return Refusal(status: 1, stderr: "unexpected error: \(error)")
        }
    }

    /// Runs `argv` and fails the test unless it succeeded.
    func ok(_ argv: String..., file: StaticString = #filePath, line: UInt = #line) {
        if let refusal = run(argv, file: file, line: line) { XCTFail("\(argv): \(refusal)", file: file, line: line) }
    }
}
