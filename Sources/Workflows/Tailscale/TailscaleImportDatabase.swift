// The database `import-tailscale` plans against and writes to. A dry run only reads;
// against a database that does not exist yet it plans against an empty one in memory
// rather than create the file.
import HostStore

public enum TailscaleImportDatabase {
    public static func open(dryRun: Bool, in workspace: Workspace) throws -> HostDatabase {
        dryRun ? try workspace.existingDatabase() ?? TailscaleImporter.emptyDatabase() : try workspace.database()
    }
}
