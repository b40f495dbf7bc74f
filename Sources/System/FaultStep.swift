// A named step of a write that a test may stop hostbook at (the fault campaign,
// docs/reliability.md): with HOSTBOOK_FAULT_STEP=NAME in its environment, a debug build of
// hostbook raises SIGKILL on itself when it reaches step NAME, and does nothing else.
//
// Inert in normal use: main.swift reads the variable once, at the start, and only in a
// debug build (`#if DEBUG`); the release build that scripts/install, scripts/package and
// scripts/hostbook make never reads it. Even in a debug build the only thing the variable
// can do is end this process at once (what anyone who sets a process's environment can do
// anyway), at a step that exists: it selects no code path, data or file.
//
// The steps are declared beside the writes they stop (extensions of FaultStep in the
// modules that own them); this file knows no step.
#if canImport(Glibc)
import Glibc
#endif

public struct FaultStep: Sendable, Hashable {
    public let name: String

    public init(_ name: String) { self.name = name }

    /// The step this process stops at, chosen once by `armFromEnvironment`.
    private static let armed = Lock<String?>(nil)

    /// The environment variable a test sets.
    public static let environmentVariable = "HOSTBOOK_FAULT_STEP"

    /// Reads HOSTBOOK_FAULT_STEP once (main.swift, debug builds only, before any thread).
    public static func armFromEnvironment() {
        guard let value = getenv(environmentVariable) else { return }
        let name = String(cString: value)
        armed.withLock { $0 = name.isEmpty ? nil : name }
    }

    /// Ends this process with SIGKILL when it was armed for this step; otherwise nothing.
    public func reached() {
        guard Self.armed.withLock({ $0 }) == name else { return }
        raise(SIGKILL)
    }
}
