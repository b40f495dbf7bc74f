// `bundle export`'s work on the workspace's database (BundleExporter): an export that drops
// hosts, snippets or host keys the bundle published before is refused unless allowed, and the
// caller may allow it once it is asked (a terminal's confirmation), after which it runs again
// with the removals allowed.
import Sessions

public enum BundleExporting {
    /// Exports as `request` says; `allowRemovals` is asked when the export is refused for
    /// what it would drop (false: the refusal stands).
    public static func run(_ workspace: Workspace, request: BundleExporter.Request,
                           allowRemovals: (BundleExportRefusal) throws -> Bool) throws -> BundleExporter.Outcome {
        let database = try workspace.database()
        do {
            return try BundleExporter.run(database: database, request: request)
        } catch let refusal as BundleExportRefusal {
            guard case .removals = refusal, try allowRemovals(refusal) else { throw refusal }
            var allowed = request
            allowed.allowRemovals = true
            return try BundleExporter.run(database: database, request: allowed)
        }
    }
}
