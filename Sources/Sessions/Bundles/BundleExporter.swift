// `hostbook bundle export --name NAME --sign KEY [--tag T]... [-o DIR]`: the database's
// hosts (those with one of the tags; all without --tag), snippets and host keys as
// BundleStore.document gives them, written as DIR/bundle.txt and DIR/bundle.txt.sig.
// The serial: one more than that of the bundle.txt already in DIR when the content
// changed (1 for a new folder); when nothing changed nothing is rewritten ("unchanged"),
// unless the signature there is another trusted key's, when only it is made again.
// The serial there is taken only from a bundle.txt whose signature verifies with a key
// this database holds or trusts for the bundle: anyone who can push to the bundle's
// repository could otherwise commit a serial near the largest one, and no later bundle
// could follow it. An unsigned or foreign one, or a serial of UInt64.max - 1 or more, is
// refused.
// The key is checked and the signature made (through the agent) before anything is written.
#if canImport(Glibc)
import Glibc
#endif
public import HostStore
public import ImportFormats
public import KeyFormats

public enum BundleExporter {
    public struct Outcome: Sendable {
        public enum Change: String, Sendable { case written, unchanged, resigned }
        public let document: BundleDocument
        public let change: Change
        public let folder: BundleFolder
        public let signer: PublicKey
    }

    public static func run(database: HostDatabase, name: String, tags: [String], keyName: String,
                           folder: BundleFolder, agentSocket: String) throws -> Outcome {
        if let problem = BundleName.problem(name) { throw SessionError.rejected(problem) }
        guard let key = try KeyStore(database: database).find(name: keyName) else {
            throw SessionError.notFound("no key named '\(keyName.escapedForTerminal)'", hint: "Run 'hostbook keys list' to see the keys.")
        }
        let signerKey = try PublicKey(blob: key.publicKeyBlob)
        var existing: (bytes: [UInt8], document: BundleDocument)? = nil
        if let bytes = try folder.readText() {
            do {
                existing = (bytes, try BundleText.parse(bytes))
            } catch {
                throw SessionError.failed("\(folder.textPath.escapedForTerminal) is not a bundle: \(error)",
                                          hint: "Export into another folder with -o DIR, or remove that file.")
            }
            if let other = existing?.document.name, other != name {
                throw SessionError.rejected("\(folder.textPath.escapedForTerminal) holds bundle '\(other.escapedForTerminal)', not '\(name.escapedForTerminal)'",
                                            hint: "Export bundle '\(name.escapedForTerminal)' into its own folder with -o DIR.")
            }
        }
        let store = BundleStore(database: database)
        let previous = existing?.document.serial ?? 0
        if let existing {
            let signed = try trustedSigner(of: existing.bytes, folder: folder, name: name, database: database)
            guard previous < UInt64.max - 1 else {
                throw SessionError.rejected("the serial of \(folder.textPath.escapedForTerminal) (\(previous)) is too large to be raised",
                                            hint: "Export bundle '\(name.escapedForTerminal)' under a new name into a new folder, and have subscribers trust and subscribe to that.")
            }
            let same = try store.document(name: name, tags: tags, serial: previous)
            if BundleText.render(same) == existing.bytes {
                if signed == signerKey { return Outcome(document: same, change: .unchanged, folder: folder, signer: signerKey) }
                let signature = try BundleSignature.sign(existing.bytes, keyName: keyName, database: database, socket: agentSocket)
                try folder.write(text: existing.bytes, signature: signature.armored)
                return Outcome(document: same, change: .resigned, folder: folder, signer: signerKey)
            }
        }
        let document = try store.document(name: name, tags: tags, serial: previous + 1)
        let text = BundleText.render(document)
        let signature = try BundleSignature.sign(text, keyName: keyName, database: database, socket: agentSocket)
        try folder.write(text: text, signature: signature.armored)
        return Outcome(document: document, change: .written, folder: folder, signer: signerKey)
    }

    /// The key that signed `bytes` (DIR/bundle.txt), when DIR/bundle.txt.sig verifies for it
    /// with a key saved in `database` or a signer it trusts for bundle `name`; otherwise
    /// `.rejected` (exit 5): its serial is not the publisher's.
    static func trustedSigner(of bytes: [UInt8], folder: BundleFolder, name: String, database: HostDatabase) throws -> PublicKey {
        let hint = "Check who changed that folder (git log -p); restore the bundle.txt and bundle.txt.sig you exported, or export into a new folder with -o DIR."
        let signed: PublicKey
        do {
            signed = try BundleSignature.signer(of: bytes, signature: try folder.readSignature(), shownAs: folder.textPath)
        } catch {
            throw SessionError.rejected("\(folder.textPath.escapedForTerminal) is not signed by a trusted key (\(error)); its serial is not taken", hint: hint)
        }
        let own = try KeyStore(database: database).find(fingerprint: signed.sha256Fingerprint).flatMap { try? PublicKey(blob: $0.publicKeyBlob) }
        let trusted = try BundleStore(database: database).signers(bundle: name)
        guard own == signed || trusted.contains(signed) else {
            throw SessionError.rejected("\(folder.textPath.escapedForTerminal) is not signed by a trusted key (signed by \(signed.sha256Fingerprint), which is neither a key of this database nor a trusted signer of bundle '\(name.escapedForTerminal)'); its serial is not taken",
                                        hint: hint)
        }
        return signed
    }
}
