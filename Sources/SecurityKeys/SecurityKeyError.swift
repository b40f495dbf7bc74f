// What can go wrong between hostbook and a security key, as data: the program words it
// (Sources/hostbook/Commands/Keys/SecurityKeyErrorPresentation.swift).

public enum SecurityKeyError: Error, Sendable, Equatable {
    /// The provider library could not be loaded, or lacks an entry point.
    case providerNotLoaded(path: String, reason: String)
    /// The provider speaks another major version of the middleware interface.
    case providerVersion(path: String, found: UInt32, expected: UInt32)
    /// OpenSSH's ssh-sk-helper (the default provider) is not installed.
    case helperMissing(paths: [String])
    /// The helper ran but did not answer as the protocol says (exit status, why).
    case helperFailed(status: String, detail: String)
    /// No authenticator answered (none plugged in, or none holds this key).
    case deviceNotFound
    /// The key needs its PIN (verify-required, or a resident-key listing).
    case pinRequired
    /// The provider does not do this (e.g. no resident keys).
    case unsupported(operation: String)
    /// A resident credential for this application and user exists on the device already.
    case credentialExists
    /// The provider refused with another code.
    case failed(operation: String, code: Int32)
    /// The provider's answer does not hold what it must (a key handle, a signature, a point).
    case malformedResponse(String)
    /// The key is not a security key (sk-*) one.
    case notSecurityKey
}
