// Every refusal of the host workflows (add, edit) that is not the store's own, as data. The
// program words each one (hostbook/Commands/Hosts/HostsRefusal+Presentation.swift).
public enum HostsRefusal: Error, Equatable {
    /// The same tag both added and removed.
    case tagAddedAndRemoved(String)
    /// A field to reset that a bundle host cannot override.
    case notAResetField(String)
    /// A user-publishing word that is neither omit nor publish.
    case notAUserPublishing(String)
    /// A reset together with other changes.
    case resetWithOtherChanges
    /// An edit that changes nothing.
    case nothingToChange(host: String)
}
