// Team bundles in the database (docs/architecture.md, "Team bundles"): who may sign each
// bundle, which bundles are subscribed to, which serial was applied, and what each bundle
// brought (host rows, snippet rows, known-host entries), so that an update removes only
// that. The text format is ImportFormats' (BundleText); signatures and git are the
// program's.
import ImportFormats
import KeyFormats

/// The bundles of one database.
public final class BundleStore {
    public let database: HostDatabase
    var connection: SQLiteConnection { database.connection }

    public init(database: HostDatabase) {
        self.database = database
    }
}
