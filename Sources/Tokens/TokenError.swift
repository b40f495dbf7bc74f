// What can go wrong with a PKCS#11 module or its token, as data (the module's path, the
// PKCS#11 return value, the operation); the executable words it.
public enum TokenError: Error, Sendable, Equatable {
    /// The module path is not absolute, or not under the system library folders, and was not
    /// allowed by name (`--allow-module`).
    case moduleNotAllowed(path: String)
    /// dlopen or C_GetFunctionList failed.
    case moduleNotLoaded(path: String, reason: String)
    /// A PKCS#11 call returned something other than CKR_OK.
    case call(operation: String, code: UInt)
    /// No token matched (slot number or label), or several did with no choice given.
    case noToken(slot: UInt?, label: String?)
    case severalTokens(labels: [String])
    /// The PIN was refused (CKR_PIN_INCORRECT, CKR_PIN_INVALID, CKR_PIN_LEN_RANGE) or the PIN is locked.
    case wrongPIN
    /// A PIN is needed and nobody could be asked for one (no approver, no terminal).
    case pinRequired
    case pinLocked
    /// The key object (by CKA_ID) is not on the token.
    case keyNotFound(id: [UInt8])
    /// The module answered something hostbook does not accept (a length, a count, an encoding).
    case malformed(String)
    /// The key's kind is not one the token signs for SSH (only RSA, NIST ECDSA and Ed25519).
    case unsupportedKey(String)
    /// The agent asked for a signature algorithm the key cannot make.
    case unsupportedAlgorithm(String)
}
