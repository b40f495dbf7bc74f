// `hostbook bundle export --name NAME --sign KEY [--tag T]... [-o DIR]`: the database's
// hosts (those with one of the tags; all without --tag), snippets and host keys as
// BundleStore.document gives them, written as DIR/bundle.txt and DIR/bundle.txt.sig.
// The serial: one more than that of the bundle.txt already in DIR when the content
// changed (1 for a new folder); when nothing changed nothing is rewritten ("unchanged"),
// unless the signature there is missing or not this key's, when only it is made again.
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
            let same = try store.document(name: name, tags: tags, serial: previous)
            if BundleText.render(same) == existing.bytes {
                let signed = try? BundleSignature.signer(of: existing.bytes, signature: folder.readSignature(), shownAs: folder.textPath)
                if signed == signerKey { return Outcome(document: same, change: .unchanged, folder: folder, signer: signerKey) }
                let signature = try BundleSignature.sign(existing.bytes, keyName: keyName, database: database, socket: agentSocket)
                try folder.write(text: existing.bytes, signature: signature.armored)
                return Outcome(document: same, change: .resigned, folder: folder, signer: signerKey)
            }
        }
        guard previous < UInt64.max else { throw SessionError.rejected("the serial of \(folder.textPath.escapedForTerminal) cannot be raised") }
        let document = try store.document(name: name, tags: tags, serial: previous + 1)
        let text = BundleText.render(document)
        let signature = try BundleSignature.sign(text, keyName: keyName, database: database, socket: agentSocket)
        try folder.write(text: text, signature: signature.armored)
        return Outcome(document: document, change: .written, folder: folder, signer: signerKey)
    }
}
