// Every refusal of the Tailscale import's input and device choice, as data. The program
// words each one (hostbook/Commands/Tailscale/TailscaleRefusal+Presentation.swift).
public enum TailscaleRefusal: Error, Equatable {
    /// The input file cannot be opened, and why.
    case cannotOpen(path: String, reason: String)
    /// No `tailscale` program on PATH.
    case tailscaleNotFound
    /// `tailscale` could not be started: before it was found (`program` nil: no pipe) or
    /// after (`program`, its path).
    case cannotRun(program: String?, reason: String)
    /// `tailscale status --json` failed: the first line it wrote, or its exit.
    case statusFailed(reason: String)
    /// What `tailscale status --json` printed is not a usable status.
    case statusUnusable(reason: String)
    /// A tag option with no tag name.
    case tagWithoutName
    /// A device list with no names in it.
    case onlyWithoutNames
    /// A device asked for by name is not in the input.
    case deviceNotFound(String)
    /// An answer to the device question that is not a number or range from 1 to `count`.
    case badChoice(String, count: Int)
}
