// Team bundles in the database (docs/architecture.md, "Team bundles"): who may sign each
// bundle, which bundles are subscribed to, which serial was applied, and what each bundle
// brought (host rows, snippet rows, known-host entries), so that an update removes only
// that. The text format is ImportFormats' (BundleText); signatures and git are the
// program's.
import ImportFormats
import KeyFormats
import System

/// The bundles of one database.
public final class BundleStore {
    public let database: HostDatabase
    var connection: SQLiteConnection { database.connection }

    /// The names this machine resolves itself, which no bundle host may take; nil: read
    /// from the machine (LocalHostNames.current) when a plan needs them.
    public let localNames: LocalHostNames?

    public init(database: HostDatabase, localNames: LocalHostNames? = nil) {
        self.database = database
        self.localNames = localNames
    }
}
