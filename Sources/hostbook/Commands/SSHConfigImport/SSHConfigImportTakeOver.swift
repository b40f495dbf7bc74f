// After `import-ssh-config` of ~/.ssh/config: the user's Host blocks for the hosts just
// imported are commented out (Workflows' SSHConfigTakeOverOffer: which blocks, which are
// left and why) with --take-over, or after a yes on a terminal, so that the installed
// configuration serves them; a block that also names something else is reported and left.
// Here: the question, the warnings and the notes.
import CommandLineKit
import HostStore
import Sessions
import Workflows

enum SSHConfigImportTakeOver {
    /// `files`: those the import read, in ssh's order (hostbook's own left out).
    static func run(_ inv: Invocation, report: SSHConfigImportReport, path: String, files: [String], requested: Bool) throws {
        // Unasked, a file that cannot be taken over only goes without the offer: the import succeeded.
        guard let offer = try SSHConfigTakeOverOffer.make(inv.workspace, report: report, path: path, files: files, requested: requested) else { return }
        for change in offer.changes {
            for left in change.plan.left {
                inv.warn("left your Host block at '\(change.path)' line \(left.line) as it is: \(left.reason)")
            }
        }
        let taking = offer.taking
        guard !taking.isEmpty else {
            if requested { inv.note("No Host block of yours can be taken over: none names only imported hosts. Nothing was changed.") }
            return
        }
        let places = taking.map { "'\($0.path)' \(linesText($0.plan.taken.map(\.line)))" }.joined(separator: ", ")
        if report.dryRun {
            inv.note("Would comment out your Host blocks for the imported hosts: \(places).")
            return
        }
        if !requested {
            guard inv.canPrompt, !inv.json,
                  try inv.confirm("Comment out your own Host blocks for these hosts (\(places)), keeping a backup, so that 'hostbook ssh-config --install' serves them?",
                                  alternative: "--take-over") else {
                inv.note("Your own Host blocks stay in charge of these hosts (\(places)); 'hostbook import-ssh-config --take-over' hands them to hostbook.")
                return
            }
        }
        try offer.apply()
        for change in taking {
            let n = change.plan.taken.count
            inv.note("Commented out \(n) Host block\(n == 1 ? "" : "s") in '\(change.path)' (\(linesText(change.plan.taken.map(\.line))) before); its text from before is in '\(SSHConfigTakeOverFiles.backup(of: change.path))'.")
        }
        inv.note("'hostbook ssh-config --uninstall --restore' gives them back.")
    }

    /// "line 18" or "lines 18, 25".
    static func linesText(_ lines: [Int]) -> String {
        (lines.count == 1 ? "line " : "lines ") + lines.map(String.init).joined(separator: ", ")
    }
}
