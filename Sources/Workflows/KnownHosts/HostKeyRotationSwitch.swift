// `known-hosts rotation`'s work: whether a login learns a host's key rotation, stored per
// host name and port (HostKeyRotation's rules, KnownHostsStore's table). Turning it off is
// refused for a name that is neither a saved host nor in the known hosts with a key of its
// own (a typo would otherwise be stored silently and protect nothing). Only a plain entry
// counts: rotation learns plain keys, and a `@revoked` or `@cert-authority` line whose
// pattern (`*`, `*.example.com`) covers the name knows no key of that host.
import HostStore
import KeyFormats

public enum HostKeyRotationSwitch {
    /// Whether rotation is on for `lookup` (on when there is no database yet).
    public static func isOn(_ lookup: HostLookupName, in workspace: Workspace) throws -> Bool {
        try !(workspace.existingDatabase().map { try KnownHostsStore(database: $0).rotationTurnedOff(lookup) } ?? false)
    }

    /// Turns rotation on or off for `lookup`; true when that changed the setting. `savedHost`:
    /// the name given was a saved host's. Off for an unknown name throws
    /// `KnownHostsRefusal.rotationHostUnknown` with nothing written (no database created).
    public static func set(_ lookup: HostLookupName, on: Bool, savedHost: Bool, in workspace: Workspace) throws -> Bool {
        if !on, !savedHost {
            let known = try workspace.existingDatabase().map {
                try KnownHostsStore(database: $0).entries(consultedFor: lookup).contains { $0.marker == .none }
            } ?? false
            guard known else { throw KnownHostsRefusal.rotationHostUnknown(lookup) }
        }
        return try KnownHostsStore(database: workspace.database()).setRotation(lookup, on: on)
    }
}
