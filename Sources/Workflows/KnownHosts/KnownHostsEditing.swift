// The known-hosts commands' plain writes over the workspace's database (created when
// missing): `remove`, `revoke` and `import`. Each is one store call, in its own transaction;
// the audit trail records it (source `manual` for the commands typed by hand).
import HostStore
import KeyFormats

public enum KnownHostsEditing {
    /// Every entry for `lookup` removed (as `ssh-keygen -R`); the rows removed, none when
    /// nothing was stored.
    public static func remove(_ lookup: HostLookupName, in workspace: Workspace) throws -> [KnownHostRow] {
        try KnownHostsStore(database: workspace.database()).remove(lookup, source: "manual")
    }

    /// `key` marked revoked for `lookup`; false when it already was.
    public static func revoke(_ lookup: HostLookupName, key: PublicKey, in workspace: Workspace) throws -> Bool {
        try KnownHostsStore(database: workspace.database()).revoke(lookup, key: key, source: "manual")
    }

    /// An OpenSSH known_hosts file's `bytes` imported; `progress` is told the lines read, the
    /// bytes done and the bytes in all.
    public static func importFile(_ bytes: [UInt8], in workspace: Workspace,
                                  progress: @escaping (_ lines: Int, _ done: Int, _ total: Int) -> Void) throws -> KnownHostsImportReport {
        try KnownHostsStore(database: workspace.database()).importKnownHosts(bytes, progress: progress)
    }
}
