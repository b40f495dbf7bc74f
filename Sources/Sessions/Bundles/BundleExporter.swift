// `hostbook bundle export --name NAME --sign KEY [--tag T]... [--snippet S]... [-o DIR]`: the
// database's hosts (those with one of the tags; all without --tag), the snippets chosen and
// host keys as BundleStore.document gives them, written as DIR/bundle.txt and
// DIR/bundle.txt.sig.
// The serial never goes backwards: one more than the highest of the serial this database
// exported or applied for NAME (BundleStore.knownSerial) and that of the bundle.txt already
// in DIR, whatever the folder. When DIR's bundle is the newest and its content is what the
// export would write, nothing is rewritten ("unchanged"), unless the signature there is
// another trusted key's, when only it is made again.
// The serial in DIR is taken only from a bundle.txt whose signature verifies with a key
// this database holds or trusts for the bundle: anyone who can push to the bundle's
// repository could otherwise commit a serial near the largest one, and no later bundle
// could follow it. An unsigned or foreign one, or a serial of UInt64.max - 1 or more, is
// refused.
// Publishing is safe: the new document is compared with the bundle published before (DIR's
// trusted bundle, else what NAME brought into this database) and an export that drops
// hosts, snippets or host-key entries is refused (BundleExportRefusal.removals) unless the
// caller allows removals. Hosts, snippets and host keys NAME brought into this database are
// published again only by a trusted signer of NAME (a second maintainer); anyone else is
// refused (.notASigner). Another bundle's are never published.
// DIR is created (0755) when missing, its parents only when asked for, and only once the
// signature is made: a refused export leaves no folder behind.
// The key is checked and the signature made (through the agent) before anything is written.
#if canImport(Glibc)
import Glibc
#endif
public import HostStore
public import ImportFormats
public import KeyFormats
public import System

/// Why an export wrote nothing, as data; the program words it.
public enum BundleExportRefusal: Error, Sendable {
    /// What the export was compared with.
    public enum Baseline: Sendable, Equatable {
        /// DIR/bundle.txt (its path).
        case folder(String)
        /// What the bundle brought into this database (a subscription or an import).
        case database
    }

    /// The export folder is missing and could not be made (ENOENT: its parent is missing,
    /// `parents` false).
    case folderNotCreated(path: String, errno: Errno, parents: Bool)
    /// The export drops what the bundle published before (serial `previous`) carried.
    case removals(bundle: String, previous: UInt64, removals: BundleRemovals, baseline: Baseline)
    /// This database holds what bundle `bundle` brought, and the signing key is not one of
    /// its trusted signers: only they may publish its hosts again.
    case notASigner(bundle: String, fingerprint: String)
}

public enum BundleExporter {
    public struct Request: Sendable {
        public var name: String
        public var keyName: String
        public var selection: BundleExportSelection
        public var folder: BundleFolder
        /// Create DIR's missing parents too.
        public var parents: Bool
        /// Publish even when the export drops hosts, snippets or host keys.
        public var allowRemovals: Bool
        public var agentSocket: String

        public init(name: String, keyName: String, selection: BundleExportSelection, folder: BundleFolder, parents: Bool = false,
                    allowRemovals: Bool = false, agentSocket: String) {
            self.name = name
            self.keyName = keyName
            self.selection = selection
            self.folder = folder
            self.parents = parents
            self.allowRemovals = allowRemovals
            self.agentSocket = agentSocket
        }
    }

    public struct Outcome: Sendable {
        public enum Change: String, Sendable { case written, unchanged, resigned }
        public let document: BundleDocument
        public let change: Change
        public let folder: BundleFolder
        public let signer: PublicKey
        /// What the written bundle drops of the one before (allowed removals); empty otherwise.
        public let removals: BundleRemovals
        /// True when the hosts this bundle brought were published again (a second maintainer).
        public let republished: Bool
    }

    public static func run(database: HostDatabase, request: Request) throws -> Outcome {
        let name = request.name, folder = request.folder
        if let problem = BundleName.problem(name) { throw SessionRefusal.bundleNameRefused(problem: problem) }
        guard let key = try KeyStore(database: database).find(name: request.keyName) else {
            throw SessionRefusal.keyNotFound(name: request.keyName)
        }
        let signerKey = try PublicKey(blob: key.publicKeyBlob)
        // A missing folder whose parent is missing too is refused before anything is signed.
        let folderExists = SharedFolder.exists(folder.path)
        if !folderExists, !request.parents, !SharedFolder.exists(ParentFolder.of(folder.path)) {
            throw BundleExportRefusal.folderNotCreated(path: folder.path, errno: Errno(ENOENT), parents: false)
        }
        var existing: (bytes: [UInt8], document: BundleDocument)? = nil
        if folderExists, let bytes = try folder.readText() {
            do {
                existing = (bytes, try BundleText.parse(bytes))
            } catch {
                throw SessionRefusal.exportFolderNotABundle(path: folder.textPath, reason: "\(error)")
            }
            if let other = existing?.document.name, other != name {
                throw SessionRefusal.exportFolderHoldsOther(path: folder.textPath, other: other, bundle: name)
            }
        }
        let store = BundleStore(database: database)
        // What the bundle brought here is published again only by one of its signers.
        let brought = try store.broughtDocument(bundle: name)
        let isSigner = try store.signers(bundle: name).contains(signerKey)
        if let brought, !(brought.hosts.isEmpty && brought.snippets.isEmpty && brought.hostKeys.isEmpty), !isSigner {
            throw BundleExportRefusal.notASigner(bundle: name, fingerprint: signerKey.sha256Fingerprint)
        }
        var selection = request.selection
        selection.republish = brought != nil && isSigner
        let folderSerial = existing?.document.serial ?? 0
        let known = try store.knownSerial(bundle: name)
        if let existing {
            let signed = try trustedSigner(of: existing.bytes, folder: folder, name: name, database: database)
            if folderSerial >= known {
                let same = try store.document(name: name, selection: selection, serial: folderSerial)
                if BundleText.render(same) == existing.bytes {
                    if signed == signerKey {
                        return Outcome(document: same, change: .unchanged, folder: folder, signer: signerKey, removals: BundleRemovals(),
                                       republished: selection.republish)
                    }
                    let signature = try BundleSignature.sign(existing.bytes, keyName: request.keyName, database: database, socket: request.agentSocket)
                    try folder.write(text: existing.bytes, signature: signature.armored)
                    return Outcome(document: same, change: .resigned, folder: folder, signer: signerKey, removals: BundleRemovals(),
                                   republished: selection.republish)
                }
            }
        }
        let previous = max(folderSerial, known)
        guard previous < UInt64.max - 1 else {
            throw SessionRefusal.bundleSerialExhausted(bundle: name, serial: previous)
        }
        let document = try store.document(name: name, selection: selection, serial: previous + 1)
        var removals = BundleRemovals()
        if let baseline = existing?.document ?? brought {
            removals = BundleStore.removals(from: baseline, to: document)
            if !removals.isEmpty, !request.allowRemovals {
                throw BundleExportRefusal.removals(bundle: name, previous: baseline.serial, removals: removals,
                                                   baseline: existing != nil ? .folder(folder.textPath) : .database)
            }
        }
        let text = BundleText.render(document)
        let signature = try BundleSignature.sign(text, keyName: request.keyName, database: database, socket: request.agentSocket)
        if !folderExists {
            do { try SharedFolder.make(folder.path, parents: request.parents) } catch {
                throw BundleExportRefusal.folderNotCreated(path: error.path, errno: error.errno, parents: request.parents)
            }
        }
        // Recorded before the files: a failed write skips a serial, never repeats one.
        try store.recordExported(bundle: name, serial: document.serial)
        try folder.write(text: text, signature: signature.armored)
        return Outcome(document: document, change: .written, folder: folder, signer: signerKey, removals: removals, republished: selection.republish)
    }

    /// The key that signed `bytes` (DIR/bundle.txt), when DIR/bundle.txt.sig verifies for it
    /// with a key saved in `database` or a signer it trusts for bundle `name`; otherwise
    /// `.rejected` (exit 5): its serial is not the publisher's.
    static func trustedSigner(of bytes: [UInt8], folder: BundleFolder, name: String, database: HostDatabase) throws -> PublicKey {
        let signed: PublicKey
        do {
            signed = try BundleSignature.signer(of: bytes, signature: try folder.readSignature(), shownAs: folder.textPath)
        } catch {
            throw SessionRefusal.exportFolderNotSigned(path: folder.textPath, reason: "\(error)")
        }
        let own = try KeyStore(database: database).find(fingerprint: signed.sha256Fingerprint).flatMap { try? PublicKey(blob: $0.publicKeyBlob) }
        let trusted = try BundleStore(database: database).signers(bundle: name)
        guard own == signed || trusted.contains(signed) else {
            throw SessionRefusal.exportFolderSignerUnknown(path: folder.textPath, fingerprint: signed.sha256Fingerprint, bundle: name)
        }
        return signed
    }
}
