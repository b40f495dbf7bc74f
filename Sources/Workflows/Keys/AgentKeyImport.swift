// `keys import-agent`'s work: the public halves of the keys another agent lists, saved
// (location `upstream`) under free names, with the agent's socket saved as an upstream
// (AgentUpstreams) so the agents sign through it. Nothing is added to or taken from that
// agent, nothing goes into the vault.
import Agent
import HostStore
import KeyFormats

public enum AgentKeyImport {
    public struct Result {
        public let imported: [StoredKey]
        /// Keys the agent lists that are saved already (left as they are).
        public let alreadySaved: [StoredKey]
        /// Certificates the agent lists (not saved).
        public let certificates: Int
    }

    /// Saves the keys the agent at `socket` (checked already) lists: only the one with
    /// SHA256 fingerprint `wanted` when given, named `name` when given (then exactly one key).
    public static func run(socket: String, wanted: String?, name: String?, workspace: Workspace) throws -> Result {
        let listed = try UpstreamAgent(socket: socket).identities()
        let certificates = listed.filter { $0.publicKey == nil }.count
        var keys = listed.compactMap { identity in identity.publicKey.map { (key: $0, comment: identity.comment) } }
        if let wanted {
            keys = keys.filter { $0.key.sha256Fingerprint == wanted }
            guard !keys.isEmpty else { throw KeysRefusal.noKeyInAgent(socket: socket, fingerprint: wanted) }
        }
        if name != nil && keys.count != 1 { throw KeysRefusal.nameNeedsOneKey(listed: keys.count) }

        let ctx = try KeysContext.open(workspace)
        var skipped: [StoredKey] = []
        let imported = try KeysRefusal.database(.saveKeys) {
            var new: [NewKey] = []
            var chosen: Set<String> = []
            for (key, comment) in keys {
                if let existing = try ctx.store.find(fingerprint: key.sha256Fingerprint) {
                    skipped.append(existing)
                    continue
                }
                let keyName = try name ?? freeName(for: key, comment: comment, ctx.store, besides: chosen)
                chosen.insert(keyName.lowercased())
                new.append(NewKey(uuid: UUIDString.random(), name: keyName, publicKey: key, comment: comment, format: "agent", location: .upstream))
            }
            // The socket first: saved alone it only makes the agents ask it; the keys all or none.
            _ = try AgentUpstreams(database: ctx.database).add(socket)
            return try ctx.store.insert(new)
        }
        return Result(imported: imported, alreadySaved: skipped, certificates: certificates)
    }

    /// The key's comment (its last path component, as a file's key is named after the file)
    /// when that is a valid, free name; else `agent-` and the start of its fingerprint.
    /// `besides`: the names (lower-cased) chosen already for other keys of the same import.
    public static func freeName(for key: PublicKey, comment: String, _ store: KeyStore, besides: Set<String>) throws -> String {
        func taken(_ name: String) throws -> Bool { try besides.contains(name.lowercased()) || store.find(name: name) != nil }
        let base = comment.split(separator: "/").last.map(String.init) ?? ""
        if KeyName.problem(base) == nil, try !taken(base) { return base }
        let digits = key.sha256Fingerprint.dropFirst("SHA256:".count).filter { $0.isLetter || $0.isNumber }
        return try store.freeName("agent-" + digits.prefix(8), besides: besides)
    }
}
