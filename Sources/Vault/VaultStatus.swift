// Where the Secret Service stands: `VaultClient.status()` and the fuller `VaultClient.health()`
// that `hostbook vault status` shows.

/// Where the Secret Service stands, from `VaultClient.status()`.
public enum VaultStatus: Sendable, Equatable {
    case ok
    case locked
    case noDefaultCollection
    case noService
    case noSessionBus
    case timedOut
}

public struct VaultHealth: Sendable {
    public let status: VaultStatus
    /// The program that provides the Secret Service (e.g. "gnome-keyring-daemon"), when known.
    public let service: String?
    /// The default collection's name from its object path (e.g. "login"; KeePassXC: the
    /// database file's name), the same whether it is locked or not; nil when there is none.
    public let collection: String?
    /// The collection's label (e.g. "Login"). KeePassXC shows the file's name while the
    /// database is locked and the database's own name once it is unlocked.
    public let label: String?
    /// What is wrong and what to do; nil when `status == .ok`.
    public let error: VaultError?

    public init(status: VaultStatus, service: String?, collection: String?, label: String?, error: VaultError?) {
        self.status = status
        self.service = service
        self.collection = collection
        self.label = label
        self.error = error
    }
}

extension VaultStatus {
    /// The status word of `hostbook vault status --json`.
    public var name: String {
        switch self {
        case .ok: "ok"
        case .locked: "locked"
        case .noDefaultCollection: "no-default-collection"
        case .noService: "no-service"
        case .noSessionBus: "no-session-bus"
        case .timedOut: "timed-out"
        }
    }

    /// The status an error means (a failure without a status of its own counts as no service).
    init(_ kind: VaultError.Kind) {
        switch kind {
        case .noSessionBus: self = .noSessionBus
        case .noService: self = .noService
        case .noDefaultCollection: self = .noDefaultCollection
        case .locked, .wrongPassphrase: self = .locked
        case .timedOut: self = .timedOut
        case .unknownPayloadVersion, .failed: self = .noService
        }
    }
}
