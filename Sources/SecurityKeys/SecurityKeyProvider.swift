// Which provider hostbook signs through, and the one entry point the agents call: the
// signature of some data by an sk key (the key handle the vault keeps). docs/security-keys.md.
//   SSH_SK_PROVIDER=PATH   a provider library (OpenSSH's middleware interface), loaded in-process
//   unset or `internal`    OpenSSH's ssh-sk-helper with its built-in USB provider (libfido2)
public import KeyFormats
public import SecureMemory

public enum SecurityKeyProvider: Sendable, Equatable {
    /// OpenSSH's own ssh-sk-helper, running its `internal` USB HID provider.
    case builtIn
    /// A middleware library at this path, loaded into this process.
    case library(path: String)

    /// The variable OpenSSH's tools read the provider from (ssh-keygen -w, ssh-add -S).
    public static let environmentVariable = "SSH_SK_PROVIDER"

    /// The provider `environment` names (SSH_SK_PROVIDER), else the built-in one.
    public init(environment: [String: String]) {
        let named = environment[Self.environmentVariable] ?? ""
        self = named.isEmpty || named == "internal" ? .builtIn : .library(path: named)
    }

    /// The middleware that reaches it.
    public func middleware() throws(SecurityKeyError) -> any SecurityKeyMiddleware {
        switch self {
        case .builtIn: try SSHSKHelper(provider: "internal")
        case .library(let path): try SecurityKeyLibrary.load(path: path)
        }
    }
}

/// Signing with security keys: what an agent identity's signer calls for an sk key.
public struct SecurityKeySigner: Sendable {
    public let provider: SecurityKeyProvider

    public init(provider: SecurityKeyProvider) { self.provider = provider }

    /// The SSH signature blob of `data` by the authenticator holding `key`'s credential
    /// (a touch, and the PIN for a verify-required key, as the key's flags ask).
    public func sign(_ key: PrivateKey, data: [UInt8], pin: SecretBytes? = nil) throws(SecurityKeyError) -> [UInt8] {
        guard SecurityKeyHandle(key) != nil else { throw .notSecurityKey }
        return try provider.middleware().sign(key, data: data, pin: pin)
    }
}
