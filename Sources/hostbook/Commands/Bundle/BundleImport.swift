// `hostbook bundle import DIR [--dry-run]`: verifies DIR/bundle.txt against its signature
// and the bundle's trusted signers, then applies it (BundleIntake, BundleApplying).
import CommandLineKit
import HostStore
import Sessions
import System
import Workflows

enum BundleImport {
    static let spec = CommandSpec(
        ["bundle", "import"], changesHostsOrKeys: true,
        summary: "Verify a bundle folder's signature and apply it",
        usage: "DIR [--dry-run]",
        discussion: """
            Reads DIR/bundle.txt and DIR/bundle.txt.sig. Refused, with nothing written (exit 5): \
            no signature, a signature that does not verify over the file's bytes, a signer not \
            trusted for the bundle's name ('hostbook bundle trust NAME --signer ...'), a serial lower \
            than the one applied. Hosts from the bundle get source bundle:NAME; a host or snippet of \
            that name made by you or another source is left alone (reported), a host key that \
            disagrees with one you trust is reported as changed and not applied.
            """,
        positionals: [.required("DIR", "The bundle folder", completes: .files)],
        options: [.flag(.dryRun, "Print what would change; write nothing")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let folder = BundleFolder(path: SSHPaths.absolute(inv.args.positional(0)!))
        guard let text = try folder.readText() else {
            throw CLIError.notFound("no \(BundleFolder.textName) in \(folder.path)", hint: "Give the folder 'hostbook bundle export' wrote into.")
        }
        let signature = try folder.readSignature()
        let dryRun = inv.args.flag(.dryRun)
        // A dry run creates no database: it reads the one there is, or plans against an
        // empty one in memory (which trusts no signer, so it is refused).
        let database = try inv.workspace.database(dryRun: dryRun)
        let intake = try BundleIntake.check(text: text, signature: signature, shownAs: folder.textPath, expectedName: nil, database: database)
        if !dryRun, !intake.plan.writesNothing, let leftover = try BundleApplying.apply(intake.plan, database: database) {
            throw FailedAfterChanges(underlying: leftover)
        }
        if inv.json {
            inv.printJSON(.object(BundlePlanPresentation.fields(intake, applied: !dryRun)))
        } else {
            BundlePlanPresentation.print(intake, dryRun: dryRun, to: inv)
        }
    }
}
