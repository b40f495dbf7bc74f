// What applying a bundle would change, computed without writing (BundleStore.plan), and
// what it reports but leaves alone (clashes, changed host keys, missing key names).
import ImportFormats

public struct BundlePlan: Sendable, Equatable {
    /// A host or snippet of the bundle whose name is taken by one the bundle did not bring.
    public struct Clash: Sendable, Equatable {
        public enum Kind: Sendable, Equatable { case host, snippet }
        public let kind: Kind
        public let name: String
        /// Where the existing one came from: `manual`, `tailscale`, `ssh-config`,
        /// `bundle:OTHER` (a snippet: `manual`).
        public let owner: String

        public init(kind: Kind, name: String, owner: String) {
            self.kind = kind
            self.name = name
            self.owner = owner
        }
    }

    /// A bundle host-key line that disagrees with a key the user already trusts for that
    /// host: not applied.
    public struct ChangedHostKey: Sendable, Hashable {
        /// The host (and port) the line is for, as a lookup string (`name` or `[name]:port`).
        public let host: String
        /// The bundle's line.
        public let line: String
        /// The fingerprint of the bundle's key.
        public let offered: String
        /// The fingerprints the user trusts for that host now.
        public let trusted: [String]

        public init(host: String, line: String, offered: String, trusted: [String]) {
            self.host = host
            self.line = line
            self.offered = offered
            self.trusted = trusted
        }
    }

    /// A bundle host or host-key line that is not applied because the bundle may not
    /// speak for that name (docs/formats.md, "Team bundles"), with the reason.
    public struct Refused: Sendable, Equatable {
        /// The host's name, or the host-key line.
        public let what: String
        public let reason: String

        public init(_ what: String, reason: String) {
            self.what = what
            self.reason = reason
        }
    }

    /// A host whose key name this database has no key for: the host is kept without a key.
    public struct MissingKey: Sendable, Equatable {
        public let host: String
        public let key: String

        public init(host: String, key: String) {
            self.host = host
            self.key = key
        }
    }

    /// A host the plan removes, or whose hostname, port, user or pinned host keys it
    /// changes, that has a password in the vault: apply removes the row or its password login, the vault item
    /// (named by the host's uuid) is the caller's to remove. A password never follows a
    /// host to an address the bundle chose.
    public struct RemovedPassword: Sendable, Equatable {
        public let host: String
        public let uuid: String
        /// True when the host stays but its address changes.
        public let addressChanged: Bool
        /// True when the host keeps its address but the bundle changes the host keys it
        /// pins for it (its plain, `@cert-authority` or `@revoked` lines for that address).
        public let keyChanged: Bool

        public init(host: String, uuid: String, addressChanged: Bool = false, keyChanged: Bool = false) {
            self.host = host
            self.uuid = uuid
            self.addressChanged = addressChanged
            self.keyChanged = keyChanged
        }
    }

    /// A field of one of the bundle's hosts that the subscriber set for themselves, whose
    /// value in the bundle changed: the subscriber's value is kept.
    public struct OverrideKept: Sendable, Equatable {
        public let host: String
        /// user, key, port, note, tags or aliases.
        public let field: String
        /// The bundle's value now, and the subscriber's (lists joined by ", "; nil: none).
        public let bundleValue: String?
        public let localValue: String?

        public init(host: String, field: String, bundleValue: String?, localValue: String?) {
            self.host = host
            self.field = field
            self.bundleValue = bundleValue
            self.localValue = localValue
        }
    }

    /// A user certificate of the bundle that certifies one of the subscriber's keys and is
    /// attached to it (KeyCertificates' rules: it certifies the key, its signature verifies).
    public struct CertificateToAttach: Sendable, Equatable {
        /// The key's name.
        public let key: String
        public let serial: UInt64
        public let keyID: String
        /// The SHA-256 fingerprint of the CA that signed it.
        public let authority: String
        public let validBefore: UInt64
        /// True when it replaces a certificate of the same CA (a renewal).
        public let replaces: Bool

        public init(key: String, serial: UInt64, keyID: String, authority: String, validBefore: UInt64, replaces: Bool) {
            self.key = key
            self.serial = serial
            self.keyID = keyID
            self.authority = authority
            self.validBefore = validBefore
            self.replaces = replaces
        }
    }

    /// A user certificate of the bundle for one of the subscriber's keys that is not attached.
    public struct CertificateNotAttached: Sendable, Equatable {
        public enum Reason: Sendable, Equatable {
            /// No `@cert-authority` line of the bundle holds the key that signed it.
            case notTheBundlesAuthority
            /// It has expired.
            case expired
            /// Its CA signature does not verify.
            case badSignature
            /// The key has a certificate of another CA (the user's), which stays.
            case otherAuthorityAttached
        }
        /// The key's name.
        public let key: String
        public let serial: UInt64
        public let reason: Reason

        public init(key: String, serial: UInt64, reason: Reason) {
            self.key = key
            self.serial = serial
            self.reason = reason
        }
    }

    /// The bundle's name.
    public let bundle: String
    /// The serial the plan applies, and the one applied before (nil: never).
    public let serial: UInt64
    public let previousSerial: UInt64?
    /// SHA-256 (hex) of the document's canonical text.
    public let digest: String
    /// The document the plan was made from (apply re-plans from it inside its transaction).
    public let document: BundleDocument

    /// True for the plan of `planRemoval`: the bundle goes, its serial stays recorded.
    public var removesBundle = false

    public var hostsToAdd: [BundleHost] = []
    /// Hosts this bundle brought before whose fields change.
    public var hostsToUpdate: [BundleHost] = []
    /// Names of hosts this bundle brought that it no longer carries.
    public var hostsToRemove: [String] = []
    public var snippetsToAdd: [BundleSnippet] = []
    public var snippetsToUpdate: [BundleSnippet] = []
    public var snippetsToRemove: [String] = []
    /// Host-key lines to add as trusted (plain keys and `@cert-authority`).
    public var hostKeysToTrust: [String] = []
    /// `@revoked` lines to add.
    public var hostKeysToRevoke: [String] = []
    /// Lines this bundle brought before that it no longer carries.
    public var hostKeysToRemove: [String] = []

    public var clashes: [Clash] = []
    /// Hosts named like a DNS name other than their own hostname, like the hostname of a
    /// saved host the bundle did not bring, or like a name this machine resolves itself, and
    /// hosts whose jump host is not one of the bundle's: not applied.
    public var refusedHosts: [Refused] = []
    /// Host-key lines the bundle may not write (TrustAuthority: a name that is not one of
    /// its hosts, a wider pattern, another origin's host or trust): not applied.
    public var refusedHostKeys: [Refused] = []
    public var changedHostKeys: [ChangedHostKey] = []
    public var missingKeys: [MissingKey] = []
    /// Hosts in `hostsToRemove`, and hosts in `hostsToUpdate` whose hostname, port or user
    /// changes, whose password is in the vault.
    public var removedPasswords: [RemovedPassword] = []
    /// Overridden fields whose bundle value changed: the subscriber's value stays.
    public var overridesKept: [OverrideKept] = []
    /// The bundle's user certificates attached to the subscriber's keys they certify.
    public var certificatesToAttach: [CertificateToAttach] = []
    /// The bundle's certificates for the subscriber's keys that are not attached.
    public var certificatesNotAttached: [CertificateNotAttached] = []
    /// How many of the bundle's certificates certify no key of this database (ignored).
    public var certificatesIgnored = 0
    /// True when the bundle's key revocation list is new, changed or gone.
    public var revocationListChanged = false
    /// True when the bundle carries a key revocation list.
    public var hasRevocationList = false

    public init(bundle: String, serial: UInt64, previousSerial: UInt64?, digest: String, document: BundleDocument) {
        self.bundle = bundle
        self.serial = serial
        self.previousSerial = previousSerial
        self.digest = digest
        self.document = document
    }

    /// True when applying writes nothing at all: it changes nothing and its serial is the
    /// one applied already. A new serial that changes nothing is still applied, so its
    /// serial is recorded and an older bundle is refused after it.
    public var writesNothing: Bool { changesNothing && previousSerial == serial }

    /// True when applying changes no host, snippet or host key (reports aside).
    public var changesNothing: Bool {
        hostsToAdd.isEmpty && hostsToUpdate.isEmpty && hostsToRemove.isEmpty
            && snippetsToAdd.isEmpty && snippetsToUpdate.isEmpty && snippetsToRemove.isEmpty
            && hostKeysToTrust.isEmpty && hostKeysToRevoke.isEmpty && hostKeysToRemove.isEmpty && overridesKept.isEmpty
            && certificatesToAttach.isEmpty && !revocationListChanged
    }
}
