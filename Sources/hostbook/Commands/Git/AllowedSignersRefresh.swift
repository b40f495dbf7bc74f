// After every successful command that changes keys (a rename, a removal, a git setup), the
// allowed signers file is rewritten when it exists (AllowedSigners.refreshIfPresent), as
// the installed ssh configuration is (InstalledConfigRefresh.after).
import CommandLineKit
import Sessions

enum AllowedSignersRefresh {
    static func after(_ spec: CommandSpec, _ inv: Invocation) {
        guard spec.changesHostsOrKeys, !inv.args.sharedFlag(.dryRun) else { return }
        let path = AllowedSigners.path(home: inv.homeDirectory, environment: inv.environment)
        do {
            try AllowedSigners.refreshIfPresent(path, database: inv.workspace.existingDatabase())
        } catch let e as UserFacingError {
            inv.warn("could not rewrite \(path): \(e.message)")
        } catch {
            inv.warn("could not rewrite \(path): \(error)")
        }
    }
}
